/**
 * Where a corpus says its videos are (docs/product.md, "Keeping a job current" and ZIP layout):
 * memberships.csv holds a row for exactly each (video, source) some read named, at the place the
 * latest read of the list gave it, with that read's time; each (list, position) once; index.csv gives
 * each video its corpus number, the source whose data it carries (the first list that named it) and
 * its place there as the latest read gave it.
 */
import { channelIdForHandle } from '../../../src/simulator';
import type { CorpusReading, Row } from '../corpus-reader';
import type { ModelJob, Span } from '../job';
import type { ReferenceModel } from '../reference';
import { some, unless, type Violation } from '../rules';

function membershipLabel(row: Row): string {
  return `${row['video_id']} at ${row['position'] || '-'} of ${row['source']} (listed_at ${row['listed_at'] || '-'})`;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Whether a time the corpus gives lies in the span of the command that read its page. */
function within(text: string | undefined, span: Span): boolean {
  const at = Date.parse(text ?? '');
  return at >= span.start && at <= (span.until ?? span.end);
}

/** Each (list, position) at most once in memberships.csv. */
export function uniquePositions(corpus: CorpusReading): Violation[] {
  const seen = new Map<string, Row>();
  const twice: string[] = [];
  for (const row of corpus.memberships) {
    if (!row['position']) continue;
    const key = `${row['source']}#${row['position']}`;
    const first = seen.get(key);
    if (first !== undefined) twice.push(`${membershipLabel(first)} and ${membershipLabel(row)}`);
    else seen.set(key, row);
  }
  return unless('memberships: each (list, position) once', twice);
}

/** memberships.csv against the reads: every pair named, nothing else, each at its latest place and time. */
export function membershipsAgree(job: ModelJob, corpus: CorpusReading): Violation[] {
  const expected = new Map<string, { position: number | null; since: Span | undefined }>();
  for (const list of job.lists)
    for (const [videoId, member] of list.members)
      expected.set(`${videoId}|${list.typed}`, { position: member.position, since: member.since });
  for (const { index, videoId } of job.videoSources)
    expected.set(`${videoId}|${job.args.sources[index]}`, { position: null, since: undefined });
  const unexpected: string[] = [];
  const wrongPlace: string[] = [];
  const wrongTime: string[] = [];
  const found = new Set<string>();
  for (const row of corpus.memberships) {
    const key = `${row['video_id']}|${row['source']}`;
    found.add(key);
    const want = expected.get(key);
    if (want === undefined) unexpected.push(membershipLabel(row));
    else if ((row['position'] || null) !== (want.position === null ? null : String(want.position)))
      wrongPlace.push(`${membershipLabel(row)}: the latest read has it at ${want.position ?? '-'}`);
    else if (want.since === undefined ? row['listed_at'] !== '' : !within(row['listed_at'], want.since))
      wrongTime.push(
        `${membershipLabel(row)}: ${want.since === undefined ? 'a video given by itself has no listed_at' : `the read that gave that position ran from ${iso(want.since.start)} to ${iso(want.since.end)}`}`,
      );
  }
  const missing = [...expected.keys()]
    .filter((key) => !found.has(key))
    .map((key) => key.replace('|', ' in '));
  return [
    ...unless('memberships: only what a read of the list named', unexpected),
    ...unless('memberships: every video a read of the list named', missing),
    ...unless('positions: those of the latest read of each list', wrongPlace),
    ...unless('listed_at: the time of the read that gave the position', wrongTime),
  ];
}

/**
 * index.csv's own columns: `number` the corpus number, `source` the first list that named the video
 * (its own source when none did), `position` and `listed_at` its place there as the latest read gave it.
 */
export function indexPlaces(job: ModelJob, corpus: CorpusReading): Violation[] {
  const numbers: string[] = [];
  const sources: string[] = [];
  const places: string[] = [];
  for (const row of corpus.index) {
    const item = job.items.get(row['video_id'] ?? '');
    if (item === undefined) continue;
    if (row['number'] !== String(item.number))
      numbers.push(`${item.videoId} is number ${row['number']}, numbered ${item.number} when first listed`);
    const source = job.args.sources[item.source];
    if (row['source'] !== source)
      sources.push(`${item.videoId} from ${row['source']}, first named by ${source}`);
    const list = job.lists.find((candidate) => candidate.index === item.source);
    const member = list?.members.get(item.videoId);
    const position = member?.position === null || member === undefined ? '' : String(member.position);
    if (row['position'] !== position)
      places.push(
        `${item.videoId} at ${row['position'] || '-'} of ${source}, where the latest read has ${position || '-'}`,
      );
    else if (member !== undefined && !within(row['listed_at'], member.since))
      places.push(
        `${item.videoId}: listed_at ${row['listed_at'] || '-'} is not the time of the read that placed it`,
      );
    else if (member === undefined && row['listed_at'] !== '')
      places.push(`${item.videoId}, given by itself, has listed_at ${row['listed_at']}`);
  }
  return [
    ...unless('index: a corpus number fixed when the job first listed the video', numbers),
    ...unless('index: source is the first list that named the video', sources),
    ...unless("index: position and listed_at are the source's latest read", places),
  ];
}

export { some };

/** memberships.csv's list_id: the playlist's ID or the channel's UC id; none for a search or a video alone. */
export function listIds(job: ModelJob, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  for (const row of corpus.memberships) {
    const list = job.lists.find((candidate) => candidate.typed === row['source']);
    const expected =
      list === undefined || list.kind === 'search'
        ? ''
        : list.kind === 'channel'
          ? list.name.startsWith('@')
            ? channelIdForHandle(list.name)
            : list.name
          : list.name;
    if (row['list_id'] !== expected)
      wrong.push(
        `${row['video_id']} in ${row['source']}: list_id ${row['list_id'] || '-'}, expected ${expected || '-'}`,
      );
  }
  return unless("memberships: list_id is the playlist's ID or the channel's UC id", wrong);
}

/**
 * index.csv's listing columns for a video a list brought: the title and length its page said (a
 * length in whole seconds, read from "12:05"), and the link to the video.
 */
export function listingFacts(model: ReferenceModel, job: ModelJob, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  for (const row of corpus.index) {
    const videoId = row['video_id'] ?? '';
    if (row['url'] !== `https://www.youtube.com/watch?v=${videoId}`)
      wrong.push(`${videoId}: url ${row['url']}`);
    const item = job.items.get(videoId);
    if (item?.firstPlace === undefined) continue;
    const video = model.video(videoId);
    if (row['title'] !== video.title)
      wrong.push(`${videoId}: title "${row['title']}", the list said "${video.title}"`);
    if (row['duration_seconds'] !== String(video.lengthSeconds))
      wrong.push(
        `${videoId}: duration_seconds ${row['duration_seconds']}, the list said ${video.lengthSeconds}`,
      );
  }
  return unless('index: the title, length and link the list page gave', wrong);
}
