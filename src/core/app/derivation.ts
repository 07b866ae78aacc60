import type { Derivation } from '../engine/prepare-transcripts';
import { DERIVATION, deriveStoredTranscript } from '../export/derived-transcript';

/**
 * How the engine derives each stored transcript for export: core/export's derivation (its txt, srt
 * and vtt files compressed, its record's tail, its word count), which the engine cannot import itself
 * (DESIGN.md, the layers), given to it here and on the worker thread that prepares transcripts.
 */
export const EXPORT_DERIVATION: Derivation = { name: DERIVATION, derive: deriveStoredTranscript };

/**
 * The name of the built worker (preparation-worker.ts), which both builds write beside the bundle of
 * each face (electron.vite.config.ts, vite.cli.config.ts); a face finds it beside itself.
 */
export const PREPARATION_WORKER_FILE = 'preparation-worker.js';
