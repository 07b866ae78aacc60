/**
 * The records against index.csv and the service (docs/product.md, ZIP layout): a line of
 * transcripts.jsonl (and a json/ file, the same record) for each ok video and none else, carrying its
 * number, source, language and the listing of the page that first numbered it, with the segments
 * exactly as the service sent them; a file per format and ok video, named after its number and ID,
 * each listed in index.csv's `files`; chunks.jsonl's passages only of ok videos with times, covering
 * each of their lines.
 */
import { strFromU8 } from 'fflate';
import type { CorpusReading, TranscriptRecord } from '../corpus-reader';
import { only, type ModelJob } from '../job';
import type { ReferenceModel } from '../reference';
import { unless, type Violation } from '../rules';

const FOLDERS = ['txt', 'json', 'srt', 'vtt'] as const;

/** Every line of transcripts.jsonl answers a row of index.csv that is ok, and the other way round. */
export function recordsMatchIndex(corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  const ok = new Map(
    corpus.index.filter((row) => row['status'] === 'ok').map((row) => [row['video_id'], row]),
  );
  const seen = new Set<string>();
  for (const record of corpus.transcripts) {
    const row = ok.get(record.video_id);
    if (seen.has(record.video_id)) wrong.push(`${record.video_id} has two lines`);
    seen.add(record.video_id);
    if (row === undefined) {
      wrong.push(`${record.video_id} has a line but is not ok in index.csv`);
      continue;
    }
    for (const [column, field] of [
      ['number', 'number'],
      ['source', 'source'],
      ['language', 'language'],
      ['requested_language', 'requested_language'],
      ['segments', 'segment_count'],
      ['word_count', 'word_count'],
    ] as const) {
      if (String(record[field] ?? '') !== (row[column] ?? ''))
        wrong.push(
          `${record.video_id}: ${field} ${String(record[field])}, index.csv's ${column} ${row[column]}`,
        );
    }
    if (record.segments.length !== Number(row['segments']))
      wrong.push(`${record.video_id}: ${record.segments.length} segments`);
  }
  for (const videoId of ok.keys())
    if (!seen.has(videoId ?? '')) wrong.push(`${videoId} is ok and has no line`);
  return unless(
    'records: transcripts.jsonl holds a line for each ok video of index.csv, agreeing with it',
    wrong,
  );
}

/**
 * The records against the reference: the track and the language asked for, the place and time of
 * the page that first numbered the video (which no later read changes), and the segments exactly as
 * the service sent them (times only with --no-timestamps off, the metadata only with it asked).
 */
export function recordsAsFetched(model: ReferenceModel, job: ModelJob, corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  for (const record of corpus.transcripts) {
    const item = job.items.get(record.video_id);
    if (item === undefined || only(item.status) !== 'ok' || item.requested === undefined) continue;
    const asked = item.requested === 'orig' ? undefined : item.requested;
    const told = model.catalog.describeTranscript(record.video_id, asked);
    if (told === null) continue;
    if (record['language'] !== told.language)
      wrong.push(
        `${record.video_id}: language ${String(record['language'])}, the service sent ${told.language}`,
      );
    if (record['requested_language'] !== item.requested)
      wrong.push(
        `${record.video_id}: requested_language ${String(record['requested_language'])}, asked ${item.requested}`,
      );
    const place = item.firstPlace;
    if ((record['position'] ?? null) !== (place?.position ?? null))
      wrong.push(
        `${record.video_id}: position ${String(record['position'])}, first numbered at ${place?.position ?? 'none'}`,
      );
    if (place !== undefined) {
      const at = Date.parse(String(record['listed_at']));
      if (!(at >= place.since.start && at <= (place.since.until ?? place.since.end)))
        wrong.push(
          `${record.video_id}: listed_at ${String(record['listed_at'])} is not the first numbering page's`,
        );
    }
    const sent = told.segments;
    const sameText =
      record.segments.length === sent.length &&
      record.segments.every((segment, i) => segment.text === sent[i]!.text);
    if (!sameText) wrong.push(`${record.video_id}: the segments are not the transcript the service sent`);
    else if (
      job.timestamps &&
      record.segments.some(
        (segment, i) => segment.start !== sent[i]!.start || segment.duration !== sent[i]!.duration,
      )
    )
      wrong.push(`${record.video_id}: the segments' times are not those the service sent`);
    else if (!job.timestamps && record.segments.some((segment) => segment.start !== null))
      wrong.push(`${record.video_id}: times in a transcript asked without them`);
    if (!job.metadata && record['author_name'] !== null)
      wrong.push(`${record.video_id}: metadata in a transcript asked without it`);
  }
  return unless('records: each transcript as the service sent it, with its first listing', wrong);
}

/**
 * The files: one per ok video and format asked (srt and vtt only with times), named
 * `<number, six digits> - <title> [<id>].<ext>` alike in every folder, listed in index.csv's
 * `files`, the json/ one holding the video's record; nothing else under the format folders.
 */
export function filesMatchIndex(corpus: CorpusReading, formats: string, timed: boolean): Violation[] {
  const wrong: string[] = [];
  const asked = new Set(formats.split(','));
  const records = new Map(corpus.transcripts.map((record) => [record.video_id, record]));
  const listed = new Set<string>();
  for (const row of corpus.index) {
    const files = (row['files'] ?? '').split('|').filter((file) => file !== '');
    for (const file of files) listed.add(file);
    if (row['status'] !== 'ok') {
      if (files.length > 0) wrong.push(`${row['video_id']} is ${row['status']} and has files`);
      continue;
    }
    const expected = FOLDERS.filter(
      (folder) => asked.has(folder) && (timed || folder === 'txt' || folder === 'json'),
    );
    const stems = new Set<string>();
    for (const folder of expected) {
      const file = files.find((name) => name.startsWith(`${folder}/`) && name.endsWith(`.${folder}`));
      if (file === undefined) {
        wrong.push(`${row['video_id']} has no ${folder} file`);
        continue;
      }
      const stem = file.slice(folder.length + 1, -folder.length - 1);
      stems.add(stem);
      const number = String(row['number']).padStart(6, '0');
      if (!stem.startsWith(`${number} - `) || !stem.endsWith(` [${row['video_id']}]`))
        wrong.push(`${file} is not named after number ${number} and ${row['video_id']}`);
      if (corpus.entries[file] === undefined) wrong.push(`${file} is listed and missing`);
      if (folder === 'json' && corpus.entries[file] !== undefined) {
        const record = JSON.parse(strFromU8(corpus.entries[file])) as TranscriptRecord;
        const line = records.get(row['video_id'] ?? '');
        if (JSON.stringify(record) !== JSON.stringify(line))
          wrong.push(`${file} is not the video's record of transcripts.jsonl`);
      }
    }
    if (stems.size > 1)
      wrong.push(`${row['video_id']}'s files are named differently: ${[...stems].join(' | ')}`);
  }
  for (const name of Object.keys(corpus.entries)) {
    const folder = name.split('/')[0] ?? '';
    if ((FOLDERS as readonly string[]).includes(folder) && !name.endsWith('/') && !listed.has(name))
      wrong.push(`${name} is in the ZIP but in no row's files`);
  }
  return unless(
    'files: one per ok video and format, named after its number and ID, listed in index.csv',
    wrong,
  );
}

/**
 * chunks.jsonl: with the chunks format only; its passages are of ok videos with times, each named
 * `<video_id>@<start in ms>`, at most --chunk-seconds long unless one segment is, and between them
 * they hold every line of each video's text.
 */
export function chunksCoverText(corpus: CorpusReading, formats: string, chunkSeconds: number): Violation[] {
  const wrong: string[] = [];
  const chunked = formats.split(',').includes('chunks');
  if (!chunked)
    return unless(
      'chunks: chunks.jsonl only with the chunks format',
      corpus.chunks === undefined ? [] : ['it is there'],
    );
  const chunks = corpus.chunks ?? [];
  const byVideo = new Map<string, string[]>();
  const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();
  const lines = new Map(
    corpus.transcripts.map((record) => [
      record.video_id,
      new Set(
        String(record['text'] ?? '')
          .split('\n')
          .map(squeeze),
      ),
    ]),
  );
  for (const chunk of chunks) {
    byVideo.set(chunk.video_id, [...(byVideo.get(chunk.video_id) ?? []), chunk.text]);
    if (!chunk.chunk_id.startsWith(`${chunk.video_id}@${Math.round(chunk.start * 1000)}`))
      wrong.push(`${chunk.chunk_id} does not name ${chunk.video_id} at ${chunk.start}`);
    // Longer than --chunk-seconds only when one segment is: then the passage is that segment alone.
    if (
      chunk.end - chunk.start > chunkSeconds + 0.001 &&
      !lines.get(chunk.video_id)?.has(squeeze(chunk.text))
    )
      wrong.push(
        `${chunk.chunk_id} spans ${chunk.end - chunk.start} s, more than --chunk-seconds ${chunkSeconds}, in more than one segment`,
      );
  }
  for (const record of corpus.transcripts) {
    const timed = record.segments.some((segment) => segment.start !== null);
    const texts = byVideo.get(record.video_id) ?? [];
    byVideo.delete(record.video_id);
    if (!timed) {
      if (texts.length > 0) wrong.push(`${record.video_id} has passages but no times`);
      continue;
    }
    const joined = squeeze(texts.join(' '));
    const lines = String(record['text'] ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const missing = lines.filter((line) => !joined.includes(squeeze(line)));
    if (missing.length > 0) wrong.push(`${record.video_id}: "${missing[0]}" is in no passage`);
  }
  for (const videoId of byVideo.keys()) wrong.push(`passages of ${videoId}, which has no transcript`);
  return unless('chunks: passages of the ok videos with times, covering every line of their text', wrong);
}

/** `HH:MM:SS,mmm` or `HH:MM:SS.mmm` in whole milliseconds. */
function msOf(hours: string, minutes: string, seconds: string, ms: string): number {
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(ms);
}

const CUE_TIMES = /(\d{2,}):(\d{2}):(\d{2})[,.](\d{3}) --> (\d{2,}):(\d{2}):(\d{2})[,.](\d{3})/g;

/**
 * The txt file is the record's text, a line per segment; an srt or vtt file has a cue per distinct
 * start of the segments (to the millisecond), in order, each ending after it starts and no later
 * than the next one starts (docs/product.md, Across the whole ZIP).
 */
export function filesHoldTheText(corpus: CorpusReading): Violation[] {
  const wrong: string[] = [];
  const records = new Map(corpus.transcripts.map((record) => [record.video_id, record]));
  for (const row of corpus.index) {
    const record = records.get(row['video_id'] ?? '');
    if (record === undefined) continue;
    for (const file of (row['files'] ?? '').split('|').filter((name) => name !== '')) {
      const bytes = corpus.entries[file];
      if (bytes === undefined) continue;
      const text = strFromU8(bytes);
      if (file.startsWith('txt/')) {
        if (text.replace(/\n$/, '') !== String(record['text'] ?? ''))
          wrong.push(`${file} is not the record's text`);
        continue;
      }
      if (!file.startsWith('srt/') && !file.startsWith('vtt/')) continue;
      const starts = [...new Set(record.segments.map((segment) => Math.round((segment.start ?? 0) * 1000)))];
      const cues = [...text.matchAll(CUE_TIMES)].map((m) => ({
        start: msOf(m[1]!, m[2]!, m[3]!, m[4]!),
        end: msOf(m[5]!, m[6]!, m[7]!, m[8]!),
      }));
      if (cues.length !== starts.length || cues.some((cue, i) => Math.abs(cue.start - starts[i]!) > 1))
        wrong.push(
          `${file}: cues start at ${cues
            .slice(0, 3)
            .map((cue) => cue.start)
            .join(', ')}…, the segments at ${starts.slice(0, 3).join(', ')}…`,
        );
      else if (cues.some((cue, i) => cue.end <= cue.start || cue.end > (cues[i + 1]?.start ?? Infinity)))
        wrong.push(`${file}: a cue ends before it starts or after the next one starts`);
    }
  }
  return unless("files: txt holds the record's text, srt and vtt a cue per start of the segments", wrong);
}
