import { truncateToBytes } from './naming';
import type { ExportInput, ExportManifest } from './types';

/** Sources named in a title; the others are counted. */
const SOURCES_NAMED = 3;
/** Bytes of each source's name in a title: a search query may be long. */
const SOURCE_BYTES = 60;

/** Text on one line: no control, surrogate or bidirectional control character, white space runs as one space. */
export function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cs}\p{Bidi_Control}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** `text` cut to SOURCE_BYTES between two words (or, a word longer than that, between graphemes). */
function shortened(text: string): string {
  const cut = truncateToBytes(text, SOURCE_BYTES);
  if (cut === text) return text;
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}

/**
 * The corpus's title: the one its authors gave, else one made from its sources, "Video transcripts
 * from PLxyz, @channel and 4 more sources", each source named by what identifies it (a playlist's ID
 * rather than its address), so that no title ends in the middle of a URL. The same in README.md,
 * CITATION.cff and datapackage.json.
 */
export function datasetTitle(input: Pick<ExportInput, 'manifest' | 'citation' | 'sourceDetails'>): string {
  const given = input.citation?.title;
  if (given !== undefined && oneLine(given) !== '') return oneLine(given);
  return titleFromSources(input.manifest, input.sourceDetails);
}

function titleFromSources(manifest: ExportManifest, details: ExportInput['sourceDetails']): string {
  const names = manifest.sources.map((source, index) => oneLine(details?.[index]?.label ?? source));
  const named = names.slice(0, SOURCES_NAMED).map(shortened);
  const others = names.length - named.length;
  if (others > 0) named.push(`${others} more source${others === 1 ? '' : 's'}`);
  const last = named.pop();
  if (last === undefined) return 'Video transcripts collected with Scriptorium';
  return `Video transcripts from ${named.length > 0 ? `${named.join(', ')} and ${last}` : last}`;
}

/** The date of an ISO time (YYYY-MM-DD, its first ten characters), or undefined when it starts with none. */
export function dateOf(isoTime: string): string | undefined {
  return /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/.exec(isoTime)?.[0];
}

/**
 * When the corpus's version was released (by the export that first wrote it), else, for a corpus given
 * without its version among the released ones, when its job last changed: what CITATION.cff and the
 * datasheet date it by.
 */
export function releaseDate(manifest: ExportManifest): string | undefined {
  const released = manifest.versions.find((version) => version.version === manifest.version);
  return dateOf(released?.releasedAt ?? manifest.finished_at);
}
