/**
 * What a corpus says became of each video and list (docs/product.md, Selection filters, ZIP layout):
 * index.csv holds exactly the videos the reads named and those given alone, each with a status the
 * selection and the service's answers allow; errors.csv a row for each list not walked and each
 * video not ok, with the status and the answer that decided it; publication intervals hold the day.
 */
import type { CorpusReading } from '../corpus-reader';
import { only, type ModelJob } from '../job';
import type { ReferenceModel } from '../reference';
import { unless, type Violation } from '../rules';

/** Every video of index.csv is one a read named or a video given alone, with a status the model allows. */
export function statusesAgree(job: ModelJob, corpus: CorpusReading, complete: boolean): Violation[] {
  const wrong: string[] = [];
  const unknown: string[] = [];
  const seen = new Set<string>();
  for (const row of corpus.index) {
    const videoId = row['video_id'] ?? '';
    seen.add(videoId);
    const item = job.items.get(videoId);
    if (item === undefined) {
      unknown.push(`${videoId} (${row['status']}, from ${row['source']})`);
      continue;
    }
    const status = row['status'] ?? '';
    if (!item.status.has(status as never))
      wrong.push(
        `${videoId} is ${status}, the selection and the answers allow ${[...item.status].join(' or ')}`,
      );
    else if (complete && status === 'pending')
      wrong.push(`${videoId} is pending in a corpus its job completed`);
  }
  const missing = [...job.items.keys()].filter((videoId) => !seen.has(videoId));
  return [
    ...unless('index: nothing beyond what the reads named (a cap included)', unknown),
    ...unless('selection: judged per list, and statuses as the service answered', wrong),
    ...unless('index: every video the reads named', missing),
  ];
}

/**
 * errors.csv: a row for each list that could not be walked (no video_id, the list as typed), then a
 * row for each video whose status is not ok, with that status, code `filter` for a skipped one, and
 * the HTTP status of the answer that decided a failed or unavailable one.
 */
export function errorsAgree(job: ModelJob, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  const listRows = corpus.errors.filter((row) => row['video_id'] === '');
  const videoRows = new Map(
    corpus.errors.filter((row) => row['video_id'] !== '').map((row) => [row['video_id'], row]),
  );
  const unwalked = job.lists.filter((list) => list.walk === 'failed' || list.walk === 'unavailable');
  const listed = new Set(listRows.map((row) => row['source']));
  for (const list of unwalked)
    if (!listed.has(list.typed)) wrong.push(`no row for ${list.typed}, which could not be walked`);
  for (const row of listRows)
    if (!unwalked.some((list) => list.typed === row['source']))
      wrong.push(`a row for ${row['source']}, which was walked`);
  for (const row of corpus.index) {
    const videoId = row['video_id'] ?? '';
    const error = videoRows.get(videoId);
    videoRows.delete(videoId);
    if (row['status'] === 'ok') {
      if (error !== undefined) wrong.push(`${videoId} is ok and has a row`);
      continue;
    }
    if (error === undefined) {
      wrong.push(`${videoId} is ${row['status']} and has no row`);
      continue;
    }
    if (error['status'] !== row['status'])
      wrong.push(`${videoId}: ${error['status']} here, ${row['status']} in index.csv`);
    if (row['status'] === 'skipped' && error['code'] !== 'filter' && error['code'] !== 'awaiting_list_size')
      wrong.push(`${videoId} is skipped with code ${error['code'] || '-'}`);
    const item = job.items.get(videoId);
    const status = item === undefined ? undefined : only(item.status);
    if ((status === 'failed' || status === 'unavailable') && item?.failure !== undefined) {
      const http = item.failure.httpStatus === null ? '' : String(item.failure.httpStatus);
      if (error['http_status'] !== http)
        wrong.push(
          `${videoId} is ${status} by an answer ${http || 'without status'}, errors.csv says ${error['http_status'] || 'none'}`,
        );
    }
  }
  for (const videoId of videoRows.keys()) wrong.push(`a row for ${videoId}, which index.csv does not hold`);
  return unless('errors: a row for each list not walked and each video not ok, as it ended', wrong);
}

/**
 * Each listing's interval holds the video's true day (the model allows either reading of a date, so
 * this keeps the words honest), and an interval is one day when the date is exact.
 */
export function datesHold(model: ReferenceModel, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  for (const row of corpus.index) {
    const from = row['published_from'];
    const to = row['published_to'];
    if (!from || !to) continue;
    const day = model.video(row['video_id'] ?? '').published.slice(0, 10);
    if (day < from || day > to)
      wrong.push(`${row['video_id']}: "${row['published']}" gave ${from}..${to}, published ${day}`);
  }
  return unless('dates: the interval holds the published day', wrong);
}

/**
 * Every exact publish date the service gives is used, channel/latest's included on a first export:
 * such a video's interval is one day.
 */
export function exactDatesUsed(job: ModelJob, corpus: CorpusReading): Violation[] {
  const worded: string[] = [];
  for (const row of corpus.index) {
    const item = job.items.get(row['video_id'] ?? '');
    if (item?.exactDate !== true || !row['published_from']) continue;
    if (row['published_from'] !== row['published_to'])
      worded.push(
        `${item.videoId}: "${row['published']}" (${row['published_from']}..${row['published_to']})`,
      );
  }
  return unless('dates: exact dates from channel/latest on a first export', worded);
}
