import { expect } from 'vitest';
import type { Database } from '../../src/core/store';

/**
 * A data folder that gives way under a connection, as SQLite answers the real thing: a full disk is
 * a database allowed no page beyond those it has (max_page_count: SQLITE_FULL), a read-only folder a
 * connection that may not write (query_only: SQLITE_READONLY).
 */
export type Breakage = 'full disk' | 'read-only folder';

export const BREAKAGES: readonly Breakage[] = ['full disk', 'read-only folder'];

/** What the store says of each, in the words every face shows (core/store/storage-error.ts). */
export const PLAIN_BREAKAGE: Record<Breakage, string> = {
  'full disk':
    "The disk holding Scriptorium's data folder is full, so Scriptorium could not save its work. " +
    'Free some space, then try again: what was saved before is kept.',
  'read-only folder':
    "Scriptorium cannot use Scriptorium's data folder: its database can only be read (a read-only disk or file). " +
    'Make it writable or choose another data folder.',
};

export function breakStore(db: Database, how: Breakage): void {
  if (how === 'full disk') db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
  else db.pragma('query_only = 1');
}

/** A logger that keeps what it is told, each line with the arguments the console would get. */
export function recordingLogger(): {
  lines: unknown[][];
  logger: { warn: (message: string, error?: unknown) => void };
  /** Resolves once a line starting with `start` was told. */
  when(start: string): Promise<void>;
} {
  const lines: unknown[][] = [];
  const waiting: Array<{ start: string; resolve: () => void }> = [];
  return {
    lines,
    when: (start) =>
      new Promise((resolve) => {
        if (lines.some((line) => String(line[0]).startsWith(start))) resolve();
        else waiting.push({ start, resolve });
      }),
    logger: {
      warn: (...args: unknown[]) => {
        lines.push(args);
        for (const wait of waiting) if (String(args[0]).startsWith(wait.start)) wait.resolve();
      },
    },
  };
}

/** Each line is plain: no error object (printed with its stack), no stack frame, no SQLite words. */
export function expectPlain(lines: unknown[][]): void {
  for (const line of lines) {
    expect(line).toHaveLength(1);
    expect(String(line[0])).not.toMatch(/\n|\bat .+:\d+:\d+|SqliteError|SQLITE_/);
  }
}
