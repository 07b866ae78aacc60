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

export interface CorpusReading {
  /** SHA-256 of the whole file. */
  sha256: string;
  /** Every entry's bytes by name. */
  entries: Record<string, Uint8Array>;
  manifest: { version: number; credits_spent: number; [key: string]: unknown };
  index: Row[];
  memberships: Row[];
  changes: Row[];
}

function table(entries: Record<string, Uint8Array>, name: string): Row[] {
  const bytes = entries[name];
  if (bytes === undefined) return [];
  return parse(strFromU8(bytes), { columns: true, skip_empty_lines: true }) as Row[];
}

export function readCorpus(path: string): CorpusReading {
  const bytes = readFileSync(path);
  const entries = unzipSync(new Uint8Array(bytes));
  const manifestBytes = entries['manifest.json'];
  if (manifestBytes === undefined) throw new Error(`${path} has no manifest.json`);
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    entries,
    manifest: JSON.parse(strFromU8(manifestBytes)) as CorpusReading['manifest'],
    index: table(entries, 'index.csv'),
    memberships: table(entries, 'memberships.csv'),
    changes: table(entries, 'changes.csv'),
  };
}
