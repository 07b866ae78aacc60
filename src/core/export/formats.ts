import { buildCues, formatTimestamp } from './cues';
import type { Cue } from './cues';
import { withoutControls } from './plain-text';
import type { ExportFormat, ExportSegment, ExportVideo } from './types';

/**
 * Plain text: one trimmed line per segment (a blank segment gives an empty line, so line N is always
 * segment N), line breaks inside a segment turned into a space, '\n' endings. Tabs stay, as plain
 * text shows them; every other control character is removed.
 */
export function renderTxt(segments: readonly ExportSegment[]): string {
  return segments
    .map(
      (segment) =>
        `${withoutControls(segment.text)
          .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
          .trim()}\n`,
    )
    .join('');
}

/**
 * SubRip. A text line holding `-->` would be read as a timing line by some parsers, so every arrow
 * made of two or more hyphens (`-->`, `--->`) becomes `->`; the text is otherwise kept as received
 * (SRT readers understand `<b>`-style tags).
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

/** WebVTT cue text must escape `&`, `<` and `>` (which also turns any `-->` into `--&gt;`). */
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

/** The json/ file: who and what, then the transcript body exactly as the service sent it. */
export function renderJson(video: ExportVideo): string {
  const file = {
    video_id: video.videoId,
    language: video.language ?? null,
    title: video.title,
    source: video.source,
    transcript: video.raw ?? video.segments ?? null,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** One file of a video, before it gets its name. */
export interface RenderedFile {
  format: ExportFormat;
  content: string;
}

/**
 * The files of one ok video in the order of `formats`, leaving out srt and vtt when its segments
 * carry no timestamps. The cues are built once for both subtitle formats.
 */
export function renderFiles(video: ExportVideo, formats: readonly ExportFormat[]): RenderedFile[] {
  const segments = video.segments ?? [];
  const cues = formats.includes('srt') || formats.includes('vtt') ? buildCues(segments) : undefined;
  const files: RenderedFile[] = [];
  for (const format of formats) {
    if (format === 'txt') files.push({ format, content: renderTxt(segments) });
    else if (format === 'json') files.push({ format, content: renderJson(video) });
    else if (cues !== undefined)
      files.push({ format, content: format === 'srt' ? renderSrt(cues) : renderVtt(cues) });
  }
  return files;
}
