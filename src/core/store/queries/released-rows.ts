import { z } from 'zod';
import type { Database } from '../database';
import { readOnlyPreparedFor } from '../prepared';
import { CorpusStateSchema, type CorpusState } from '../versions';
import {
  checkedRow,
  MEMBERSHIP_COLUMNS,
  PAGE_SIZE,
  toExportRow,
  toMembershipRow,
  type ExportRow,
  type MembershipRow,
  type StoredMembership,
  type StoredRow,
} from './export-rows';

/**
 * A released version's rows as that release kept them (store/versions.ts, keepReleasedRows): each
 * video's row and each list's place of it, the latest kept at or before the version. The export of
 * an earlier version reads these instead of the job's rows as they are now, and maps them as it maps
 * those (export-rows.ts), so a version is written again by the same code that first wrote it.
 */

/** The latest row kept of `alias` (a version_videos row) at or before the version `:version`. */
const LATEST_VIDEO = `NOT EXISTS (SELECT 1 FROM version_videos w
       WHERE w.item_id = v.item_id AND w.version > v.version AND w.version <= :version)`;
const LATEST_MEMBERSHIP = `NOT EXISTS (SELECT 1 FROM version_memberships w
       WHERE w.item_id = m.item_id AND w.source_id = m.source_id AND w.version > m.version AND w.version <= :version)`;

const KeptRowSchema = z
  .string()
  .transform((text) => z.record(z.string(), z.unknown()).parse(JSON.parse(text)));

interface KeptPlace {
  item_id: number;
  source_id: number;
  source_position: number;
  position: number | null;
  listed_at: string | null;
}

/** A released version as an export of it again reads it. */
export interface ReleasedVersion {
  version: number;
  releasedAt: string;
  /** The fingerprint of its contents; null when not known. */
  contents: string | null;
  /** The job's history as of its release; null for a version released before it was kept. */
  state: CorpusState | null;
  /** What it was written from besides its rows (core/app/version-inputs.ts); null: released before they were kept. */
  inputs: string | null;
}

const ReleasedVersionSchema = z
  .object({
    version: z.number().int(),
    released_at: z.string(),
    contents: z.string().nullable(),
    state: z.string().nullable(),
    inputs: z.string().nullable(),
  })
  .transform((row): ReleasedVersion => ({
    version: row.version,
    releasedAt: row.released_at,
    contents: row.contents,
    state: row.state === null ? null : CorpusStateSchema.parse(JSON.parse(row.state)),
    inputs: row.inputs,
  }));

const statements = readOnlyPreparedFor((db) => ({
  writable: db.prepare<[number], { version: number }>(
    'SELECT version FROM versions WHERE job_id = ? AND inputs IS NOT NULL',
  ),
  version: db.prepare<[number, number], unknown>(
    'SELECT version, released_at, contents, state, inputs FROM versions WHERE job_id = ? AND version = ?',
  ),
  videos: db.prepare<{ jobId: number; version: number; after: number; limit: number }, { row: string }>(
    `SELECT v.row FROM version_videos v
     WHERE v.job_id = :jobId AND v.number > :after AND v.version <= :version AND ${LATEST_VIDEO}
     ORDER BY v.number LIMIT :limit`,
  ),
  // The places of a page's videos, by video and then source (as the memberships' key orders them).
  places: db.prepare<{ ids: string; version: number }, KeptPlace>(
    `SELECT m.item_id, m.source_id, s.position AS source_position, m.position, m.listed_at
     FROM version_memberships m JOIN sources s ON s.id = m.source_id
     WHERE m.item_id IN (SELECT value FROM json_each(:ids)) AND m.version <= :version AND ${LATEST_MEMBERSHIP}
     ORDER BY m.item_id, m.source_id`,
  ),
  memberships: db.prepare<
    { jobId: number; version: number; number: number; sourcePosition: number; limit: number },
    StoredMembership
  >(
    `SELECT ${MEMBERSHIP_COLUMNS}
     FROM version_memberships m
     JOIN items i ON i.id = m.item_id
     JOIN sources s ON s.id = m.source_id
     WHERE m.job_id = :jobId AND m.version <= :version AND ${LATEST_MEMBERSHIP}
       AND (i.number, s.position) > (:number, :sourcePosition)
     ORDER BY i.number, s.position LIMIT :limit`,
  ),
}));

/**
 * The job's versions whose release kept what they are written from: those an export can write again
 * (unless a build that writes other bytes asks, which the export says).
 */
export function writableVersionsOf(db: Database, jobId: number): ReadonlySet<number> {
  return new Set(
    statements(db)
      .writable.all(jobId)
      .map((row) => row.version),
  );
}

/** The job's released version `version`; undefined when it has none of that number. */
export function releasedVersionOf(db: Database, jobId: number, version: number): ReleasedVersion | undefined {
  const row = statements(db).version.get(jobId, version);
  return row === undefined ? undefined : ReleasedVersionSchema.parse(row);
}

/** The version's videos by corpus number, as its release kept them, page by page. */
export function* releasedRowsOf(
  db: Database,
  jobId: number,
  version: number,
): Generator<ExportRow, void, undefined> {
  const s = statements(db);
  let after = 0;
  for (;;) {
    const kept = s.videos
      .all({ jobId, version, after, limit: PAGE_SIZE })
      .map((row) => KeptRowSchema.parse(row.row));
    const ids = kept.map((row) => Number(row['item_id']));
    const places = new Map<number, KeptPlace[]>();
    for (const place of s.places.all({ ids: JSON.stringify(ids), version })) {
      const list = places.get(place.item_id) ?? [];
      places.set(place.item_id, [...list, place]);
    }
    for (const row of kept) {
      const stored = withPlaces(row, places.get(Number(row['item_id'])) ?? []);
      after = stored.number;
      yield toExportRow(db, checkedRow(stored));
    }
    if (kept.length < PAGE_SIZE) return;
  }
}

/**
 * A kept row with what the page query reads from the memberships: the video's place in its own list
 * and the sources that hold it, in the memberships' order.
 */
function withPlaces(row: Record<string, unknown>, places: readonly KeptPlace[]): StoredRow {
  const own = places.find((place) => place.source_id === row['source_id']);
  return {
    ...(row as unknown as StoredRow),
    list_position: own?.position ?? null,
    list_listed_at: own?.listed_at ?? null,
    member_of: places.length === 0 ? null : places.map((place) => place.source_position).join(','),
  };
}

/** memberships.csv's rows of the version, as its release kept them, page by page. */
export function* releasedMembershipRowsOf(
  db: Database,
  jobId: number,
  version: number,
): Generator<MembershipRow, void, undefined> {
  let after = { number: 0, sourcePosition: -1 };
  for (;;) {
    const rows = statements(db).memberships.all({ jobId, version, ...after, limit: PAGE_SIZE });
    for (const raw of rows) {
      after = { number: raw.number, sourcePosition: raw.source_position };
      yield toMembershipRow(raw);
    }
    if (rows.length < PAGE_SIZE) return;
  }
}
