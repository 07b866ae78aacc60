import { truncateToBytes } from './naming';
import type { ExportManifest } from './types';

/** Sources named in a title; the others are counted. */
const SOURCES_NAMED = 3;
/** Bytes of each source's text in a title: a search query may be long. */
const SOURCE_BYTES = 60;

/** Text on one line: no control, surrogate or bidirectional control character, white space runs as one space. */
export function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cs}\p{Bidi_Control}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * The corpus's title, from its sources: "Video transcripts from PLxyz, @channel and 4 more sources".
 * The same in README.md, CITATION.cff and datapackage.json.
 */
export function datasetTitle(manifest: ExportManifest): string {
  const named = manifest.sources.slice(0, SOURCES_NAMED).map((source) => {
    const line = oneLine(source);
    const cut = truncateToBytes(line, SOURCE_BYTES);
    return cut === line ? line : `${cut}…`;
  });
  const others = manifest.sources.length - named.length;
  if (others > 0) named.push(`${others} more source${others === 1 ? '' : 's'}`);
  const last = named.pop();
  if (last === undefined) return 'Video transcripts collected with Scriptorium';
  return `Video transcripts from ${named.length > 0 ? `${named.join(', ')} and ${last}` : last}`;
}

/** The date of an ISO time (YYYY-MM-DD, its first ten characters), or undefined when it starts with none. */
export function dateOf(isoTime: string): string | undefined {
  return /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/.exec(isoTime)?.[0];
}
