import { buildChunks } from './chunks';
import type { Chunking } from './chunks';
import { buildCues, clampSeconds, formatTimestamp, isTimed } from './cues';
import type { Cue } from './cues';
import { jsonText } from './json-text';
import { FILE_FORMATS } from './naming';
import type { FileFormat } from './naming';
import { countWords, plainLine } from './plain-text';
import { chunkIds, chunkRecord, transcriptRecord } from './json-records';
import type { ExportFormat, ExportSegment, ExportVideo } from './types';

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
 * Renders one ok video for the `formats` asked for. The plain lines are made once for txt and the
 * record, the cues once for both subtitle formats. With `known`, the word count is taken from it.
 */
export function renderTranscript(
  video: ExportVideo,
  formats: readonly ExportFormat[],
  chunking: Chunking,
  known?: { wordCount: number },
): RenderedTranscript {
  const segments = video.segments ?? [];
  const lines = plainLines(segments);
  const text = lines.join('\n');
  // Counting words is the costliest step: a video copied from an earlier export brings its count.
  const wordCount = known?.wordCount ?? countWords(text);
  const record = transcriptRecord(video, { text, wordCount });
  const cues = formats.includes('srt') || formats.includes('vtt') ? buildCues(segments) : undefined;
  const files: RenderedFile[] = [];
  for (const format of FILE_FORMATS) {
    if (!formats.includes(format)) continue;
    if (format === 'txt') files.push({ format, content: renderTxt(lines) });
    else if (format === 'json') files.push({ format, content: `${jsonText(record, '  ')}\n` });
    else if (cues !== undefined)
      files.push({ format, content: format === 'srt' ? renderSrt(cues) : renderVtt(cues) });
  }
  const passages = formats.includes('chunks') ? (buildChunks(segments, chunking) ?? []) : [];
  const ids = chunkIds(video.videoId, passages);
  return {
    files,
    record: `${jsonText(record)}\n`,
    chunks: passages.map((passage, at) => `${jsonText(chunkRecord(video, passage, ids[at] ?? ''))}\n`),
    wordCount,
    spokenSeconds: spokenSecondsOf(segments),
    timed: segments.every(isTimed),
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
