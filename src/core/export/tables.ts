import { stringify } from 'csv-stringify/sync';
import type { ExportSourceFailure, ExportVideo } from './types';

type CsvValue = string | number | undefined;

/** One CSV record with its '\n' ending; csv-stringify quotes commas, quotes and line breaks. */
function csvRecord(values: readonly CsvValue[]): string {
  return stringify([values.map((value) => value ?? '')], { record_delimiter: 'unix' });
}

export const INDEX_CSV_HEADER = ['video_id', 'title', 'language', 'status', 'segments', 'source', 'position'];
export const ERRORS_CSV_HEADER = ['video_id', 'status', 'http_status', 'code', 'message'];

/**
 * index.csv: one row per video; `segments` and `language` empty unless ok, `position` empty when none.
 * Status is ok, unavailable, failed, skipped, or pending in a corpus written before its job finished.
 */
export function* indexCsv(videos: Iterable<ExportVideo>): Generator<string> {
  yield csvRecord(INDEX_CSV_HEADER);
  for (const video of videos) {
    const ok = video.status === 'ok';
    yield csvRecord([
      video.videoId,
      video.title,
      ok ? video.language : undefined,
      video.status,
      ok ? (video.segmentCount ?? 0) : undefined,
      video.source,
      video.position,
    ]);
  }
}

/**
 * errors.csv: first a row per source that could not be walked (its text in place of a video id),
 * then one row per video that is not ok.
 */
export function* errorsCsv(
  videos: Iterable<ExportVideo>,
  failedSources: readonly ExportSourceFailure[] = [],
): Generator<string> {
  yield csvRecord(ERRORS_CSV_HEADER);
  for (const source of failedSources) {
    yield csvRecord([source.source, source.status, source.httpStatus, source.code, source.message]);
  }
  for (const video of videos) {
    if (video.status === 'ok') continue;
    yield csvRecord([video.videoId, video.status, video.httpStatus, video.code, video.message]);
  }
}

/** Fields of a transcripts.jsonl line that metadata may not overwrite. */
const OWN_FIELDS = new Set(['video_id', 'language', 'source', 'segments']);

/**
 * The transcripts.jsonl line of one ok video: video_id, language, source, the metadata fields when they
 * were sent (flattened), then the segments with their times as received.
 */
export function transcriptLine(video: ExportVideo): string {
  const metadata = Object.entries(video.metadata ?? {}).filter(([key]) => !OWN_FIELDS.has(key));
  const segments = (video.segments ?? []).map(({ text, start, duration }) => ({ text, start, duration }));
  // fromEntries defines own properties, so a metadata key such as "__proto__" stays plain data.
  const line = Object.fromEntries([
    ['video_id', video.videoId],
    ['language', video.language],
    ['source', video.source],
    ...metadata,
    ['segments', segments],
  ]);
  return `${JSON.stringify(line)}\n`;
}
