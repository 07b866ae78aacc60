import { z } from 'zod';
import type { Database } from '../database';
import { ITEM_STATUS, ITEM_STATUSES, SOURCE_KIND, type VideoFilter } from '../../../shared/vocabulary';
import { readOnlyPreparedFor, sqlLiterals } from '../prepared';

const ITEM = sqlLiterals(ITEM_STATUS);
const KIND = sqlLiterals(SOURCE_KIND);

/** One video of a job as faces list it. */
const VideoRowSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int(),
    position: z.number().int().nullable(),
    video_id: z.string(),
    title: z.string(),
    transcript_title: z.string().nullable(),
    language: z.string().nullable(),
    status: z.enum(ITEM_STATUSES),
    source_input: z.string(),
    attempts: z.number().int(),
    http_status: z.number().int().nullable(),
    code: z.string().nullable(),
    message: z.string().nullable(),
    transcript_id: z.number().int().nullable(),
  })
  .transform((row) => ({
    itemId: row.id,
    number: row.number,
    position: row.position,
    videoId: row.video_id,
    title: row.title || row.transcript_title || '',
    language: row.language,
    status: row.status,
    source: row.source_input,
    attempts: row.attempts,
    httpStatus: row.http_status,
    code: row.code,
    message: row.message,
    transcriptId: row.transcript_id,
  }));
export type StoredVideoRow = z.output<typeof VideoRowSchema>;

export interface VideoPageQuery {
  offset: number;
  limit: number;
  /** All, or those of one status (pending includes those in flight). */
  status: VideoFilter;
  /** Words of the title, matched anywhere and without regard to case; '' matches every video. */
  search: string;
  /** The index of a source in the job: only the videos it holds (memberships.csv's). Null: all. */
  source: number | null;
}

// Every filter is always present and switched off by its own parameter, so one statement serves
// every query; the order is that of the items_by_job_number index.
const STATUS_FILTER = `
  WHERE i.job_id = :jobId
    AND (:status = 'all' OR i.status = :status OR (:status = ${ITEM.pending} AND i.status = ${ITEM.fetching}))
    AND (:source IS NULL OR EXISTS (SELECT 1 FROM memberships m JOIN sources ms ON ms.id = m.source_id
      WHERE m.item_id = i.id AND ms.job_id = :jobId AND ms.position = :source))`;
const FILTERS = `${STATUS_FILTER}
    AND (:search = '' OR instr(lower(i.title || ' ' || coalesce(t.title, '')), lower(:search)) > 0)`;

const statements = readOnlyPreparedFor((db) => ({
  page: db.prepare(
    `SELECT i.id, i.number, i.video_id, i.title, t.title AS transcript_title, t.language, i.status,
       s.input AS source_input, i.attempts, i.http_status, i.code, i.message, i.transcript_id,
       -- Where the latest read of its list put it (null: that read no longer found it); the item keeps
       -- the position its list first gave it, which its records carry.
       CASE WHEN s.kind = ${KIND.video} THEN i.position
         ELSE (SELECT m.position FROM memberships m WHERE m.item_id = i.id AND m.source_id = i.source_id)
       END AS position
     FROM items i
     JOIN sources s ON s.id = i.source_id
     LEFT JOIN transcripts t ON t.id = i.transcript_id
     ${FILTERS}
     ORDER BY i.job_id, i.number
     LIMIT :limit OFFSET :offset`,
  ),
  count: db.prepare(
    `SELECT count(*) AS n FROM items i LEFT JOIN transcripts t ON t.id = i.transcript_id ${FILTERS}`,
  ),
  // Without a search, the count needs no transcript: read from the items' index alone, it is several
  // times faster, and the table asks for it with every page (100,000 videos: 46 ms with the join).
  countByStatus: db.prepare(`SELECT count(*) AS n FROM items i ${STATUS_FILTER}`),
}));

/** A page of the job's videos by corpus number (as index.csv lists them), and how many match. */
export function videoPage(
  db: Database,
  jobId: number,
  query: VideoPageQuery,
): { total: number; rows: StoredVideoRow[] } {
  const params = { jobId, status: query.status, search: query.search.trim(), source: query.source };
  const counted =
    params.search === ''
      ? statements(db).countByStatus.get({ jobId, status: params.status, source: params.source })
      : statements(db).count.get(params);
  const { n } = z.object({ n: z.number().int() }).parse(counted);
  const rows = statements(db)
    .page.all({ ...params, limit: query.limit, offset: query.offset })
    .map((row) => VideoRowSchema.parse(row));
  return { total: n, rows };
}
