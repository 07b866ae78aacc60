/**
 * The model's own reading of a corpus ZIP, written apart from src/core: fflate unpacks it and
 * csv-parse reads its tables, so that a bug in the export's writer and its reader cannot hide each
 * other.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';

export type Row = Record<string, string>;

/** manifest.json, as far as the rules read it. */
export interface Manifest {
  version: number;
  job_id: string;
  sources: string[];
  failed_sources: Array<{ source: string; status: string; http_status: number | null }>;
  options: {
    lang: string[];
    include_timestamp: boolean;
    send_metadata: boolean;
    max_videos: number | null;
    formats: string[];
    chunk_seconds?: number;
    chunk_overlap?: number;
  };
  counts: Record<
    'videos' | 'ok' | 'unavailable' | 'failed' | 'pending' | 'skipped' | 'sources_failed',
    number
  >;
  credits_spent: number;
  credits_possible: number;
  syncs: Array<{ at: string; new_videos: number; credits: number }>;
  versions: Array<{
    version: number;
    released_at: string;
    added: number;
    retried: number;
    changed: number;
    metadata: number;
  }>;
  finished_at: string;
  /** Whether the job ran to its end: every list walked, no video left to fetch. */
  job_finished: boolean;
  /** Whether besides every video the selection kept has its transcript. */
  all_videos_transcribed: boolean;
}

/** A line of transcripts.jsonl (and a json/ file): the flat record. */
export type TranscriptRecord = Record<string, unknown> & {
  video_id: string;
  number: number;
  segments: Array<{ text: string; start: number | null; duration: number | null }>;
};

/** A line of chunks.jsonl. */
export interface ChunkRecord {
  chunk_id: string;
  video_id: string;
  language: string;
  start: number;
  end: number;
  text: string;
}

export interface CorpusReading {
  /** SHA-256 of the whole file. */
  sha256: string;
  /** Every entry's bytes by name. */
  entries: Record<string, Uint8Array>;
  manifest: Manifest;
  index: Row[];
  errors: Row[];
  memberships: Row[];
  changes: Row[];
  transcripts: TranscriptRecord[];
  chunks: ChunkRecord[] | undefined;
  text(name: string): string | undefined;
}

function table(entries: Record<string, Uint8Array>, name: string): Row[] {
  const bytes = entries[name];
  if (bytes === undefined) return [];
  return parse(strFromU8(bytes), {
    columns: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Row[];
}

function lines<T>(entries: Record<string, Uint8Array>, name: string): T[] | undefined {
  const bytes = entries[name];
  if (bytes === undefined) return undefined;
  return strFromU8(bytes)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

export function readCorpus(path: string): CorpusReading {
  const bytes = readFileSync(path);
  const entries = unzipSync(new Uint8Array(bytes));
  const manifestBytes = entries['manifest.json'];
  if (manifestBytes === undefined) throw new Error(`${path} has no manifest.json`);
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    entries,
    manifest: JSON.parse(strFromU8(manifestBytes)) as Manifest,
    index: table(entries, 'index.csv'),
    errors: table(entries, 'errors.csv'),
    memberships: table(entries, 'memberships.csv'),
    changes: table(entries, 'changes.csv'),
    transcripts: lines<TranscriptRecord>(entries, 'transcripts.jsonl') ?? [],
    chunks: lines<ChunkRecord>(entries, 'chunks.jsonl'),
    text: (name) => (entries[name] === undefined ? undefined : strFromU8(entries[name])),
  };
}
