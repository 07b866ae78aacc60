import { buildChunks } from './chunks';
import type { Chunking } from './chunks';
import { buildCues, clampSeconds, formatTimestamp, isTimed } from './cues';
import type { Cue } from './cues';
import { compressText } from '../zip/compression';
import {
  chunkIds,
  chunkRecord,
  metadataTextsOf,
  prettyRecord,
  recordHead,
  recordJson,
  recordTail,
  recordTailJson,
} from './json-records';
import { jsonText } from './json-text';
import type { FileFormat } from './naming';
import { countWords, plainLine } from './plain-text';
import type {
  DerivedTranscript,
  ExportFormat,
  ExportSegment,
  ExportVideo,
  MetadataTexts,
  TranscriptFileFormat,
} from './types';

/**
 * The plain text of each segment on one line (plain-text.ts): line N of the txt file is segment N, a
 * blank segment giving an empty line.
 */
export function plainLines(segments: readonly ExportSegment[]): string[] {
  return segments.map((segment) => plainLine(segment.text));
}

/** Plain text: the segments' plain lines, '\n' endings. Tabs stay, as plain text shows them. */
export function renderTxt(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * SubRip, carrying the cues' plain text. A text line holding `-->` would be read as a timing line by
 * some parsers, so every arrow made of two or more hyphens (`-->`, `--->`) becomes `->`.
 */
export function renderSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, index) => {
      const timing = `${formatTimestamp(cue.startMs, ',')} --> ${formatTimestamp(cue.endMs, ',')}`;
      const text = cue.lines.map((line) => line.replace(/--+>/g, '->'));
      return `${index + 1}\n${timing}\n${text.join('\n')}\n`;
    })
    .join('\n');
}

/**
 * WebVTT cue text must escape `&`, `<` and `>` (which also turns any `-->` into `--&gt;`). The cues
 * hold plain text, references already decoded, so each is escaped exactly once.
 */
function escapeVttText(line: string): string {
  return line.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** WebVTT: the header, a blank line, then cues separated by blank lines. */
export function renderVtt(cues: readonly Cue[]): string {
  const body = cues.map((cue) => {
    const timing = `${formatTimestamp(cue.startMs, '.')} --> ${formatTimestamp(cue.endMs, '.')}`;
    return `\n${timing}\n${cue.lines.map(escapeVttText).join('\n')}\n`;
  });
  return `WEBVTT\n${body.join('')}`;
}

/** One file of a video, before it gets its name. */
export interface RenderedFile {
  format: FileFormat;
  content: string;
}

/** What a stored transcript makes by itself, whatever job exports it, as text. */
export interface StoredTranscriptText {
  /** Of the files asked for, those it has (no srt or vtt without times), in the order of FILE_FORMATS. */
  files: Array<RenderedFile & { format: TranscriptFileFormat }>;
  /** The members of its record from `author_name` on (json-records.ts recordTailJson). */
  recordTail: string;
  metadata: MetadataTexts;
  wordCount: number;
  /** How far its captions reach, in seconds (the latest end of a timed segment); 0 without times. */
  spokenSeconds: number;
  /** Every segment has times: it has srt and vtt files (when asked for) and passages. */
  timed: boolean;
}

/**
 * Renders what a stored transcript makes by itself: the `formats` asked for among txt, srt and vtt,
 * and the tail of its record. The plain lines are made once for txt and the record, the cues once for
 * both subtitle formats. With `known`, the word count is taken from it.
 */
export function renderStoredTranscript(
  segments: readonly ExportSegment[],
  metadata: Record<string, unknown> | undefined,
  formats: readonly ExportFormat[],
  known?: { wordCount: number },
): StoredTranscriptText {
  const lines = plainLines(segments);
  const text = lines.join('\n');
  // Counting words is the costliest step: a video copied from an earlier export brings its count.
  const wordCount = known?.wordCount ?? countWords(text);
  const cues = formats.includes('srt') || formats.includes('vtt') ? buildCues(segments) : undefined;
  const files: StoredTranscriptText['files'] = [];
  if (formats.includes('txt')) files.push({ format: 'txt', content: renderTxt(lines) });
  if (cues !== undefined && formats.includes('srt')) files.push({ format: 'srt', content: renderSrt(cues) });
  if (cues !== undefined && formats.includes('vtt')) files.push({ format: 'vtt', content: renderVtt(cues) });
  return {
    files,
    recordTail: recordTailJson(recordTail(segments, metadata, { text, wordCount })),
    metadata: metadataTextsOf(metadata),
    wordCount,
    spokenSeconds: spokenSecondsOf(segments),
    timed: segments.every(isTimed),
  };
}

/** The files a stored transcript makes by itself, derived for every one of them. */
const DERIVED_FORMATS: readonly TranscriptFileFormat[] = ['txt', 'srt', 'vtt'];

/**
 * What a stored transcript makes whatever job exports it, derived once after it is stored
 * (core/engine's background work): its txt, srt and vtt files compressed as a ZIP entry holds them,
 * its word count and times, and the tail of its record. An export then only completes the record
 * with what the job says and copies the files (export/video-files.ts), to the same bytes as rendering.
 */
export function deriveTranscript(
  segments: readonly ExportSegment[],
  metadata: Record<string, unknown> | undefined,
): DerivedTranscript {
  const rendered = renderStoredTranscript(segments, metadata, DERIVED_FORMATS);
  const files: DerivedTranscript['files'] = {};
  for (const { format, content } of rendered.files) files[format] = compressText(content);
  const { wordCount, spokenSeconds, timed, metadata: texts, recordTail: tail } = rendered;
  return { wordCount, spokenSeconds, timed, metadata: texts, recordTail: tail, files };
}

/** An ok video's record, as its line of transcripts.jsonl and its json file. */
export interface RecordTexts {
  line: string;
  json: string;
}

/**
 * The record of an ok video, serialized once (json-records.ts recordJson) from what the job says of it
 * and the tail its transcript makes: its line of transcripts.jsonl, and its json file laid out from
 * that line (prettyRecord).
 */
export function recordTexts(video: ExportVideo, metadata: MetadataTexts, tail: string): RecordTexts {
  const record = recordJson(recordHead(video, metadata), tail);
  return { line: `${record}\n`, json: `${prettyRecord(record)}\n` };
}

/** An ok video's lines of chunks.jsonl (its passages, chunks.ts): none when its segments carry no times. */
export function chunkLines(video: ExportVideo, chunking: Chunking): string[] {
  const passages = buildChunks(video.segments ?? [], chunking) ?? [];
  const ids = chunkIds(video.videoId, passages);
  return passages.map((passage, at) => `${jsonText(chunkRecord(video, passage, ids[at] ?? ''))}\n`);
}

/** Everything an ok video puts in the corpus, rendered from one reading of its segments. */
export interface RenderedTranscript {
  /** Its files, in the order of FILE_FORMATS; no srt or vtt when its segments carry no times. */
  files: RenderedFile[];
  /** Its line of transcripts.jsonl. */
  record: string;
  /** Its lines of chunks.jsonl: none unless asked for, or when its segments carry no times. */
  chunks: string[];
  wordCount: number;
  /** How far its captions reach, in seconds (the latest end of a timed segment); 0 without times. */
  spokenSeconds: number;
  /** Every segment has times: it has srt and vtt files (when asked for) and passages. */
  timed: boolean;
}

/**
 * Renders one ok video for the `formats` asked for, from its segments and metadata: what an export
 * writes of a video whose transcript was not derived ahead (or whose files an earlier export holds, its
 * word count then `known`).
 */
export function renderTranscript(
  video: ExportVideo,
  formats: readonly ExportFormat[],
  chunking: Chunking,
  known?: { wordCount: number },
): RenderedTranscript {
  const stored = renderStoredTranscript(video.segments ?? [], video.metadata, formats, known);
  const record = recordTexts(video, stored.metadata, stored.recordTail);
  const files: RenderedFile[] = [...stored.files];
  if (formats.includes('json'))
    files.splice(formats.includes('txt') ? 1 : 0, 0, { format: 'json', content: record.json });
  return {
    files,
    record: record.line,
    chunks: formats.includes('chunks') ? chunkLines(video, chunking) : [],
    wordCount: stored.wordCount,
    spokenSeconds: stored.spokenSeconds,
    timed: stored.timed,
  };
}

/** The latest end (start + duration) among the timed segments, times clamped as in subtitles. */
function spokenSecondsOf(segments: readonly ExportSegment[]): number {
  let latest = 0;
  for (const segment of segments) {
    if (!isTimed(segment)) continue;
    const end = clampSeconds(segment.start + segment.duration);
    if (end > latest) latest = end;
  }
  return latest;
}
