import { FILE_FORMATS, type FileFormat } from '../../../shared/vocabulary';
import type { ExportVideo } from './types';
import { formatCorpusNumber } from '../../../shared/corpus-number';
import { MAX_ENTRY_PATH_BYTES } from '../zip/layout';

export { FILE_FORMATS, type FileFormat };

export const DEFAULT_NAME_TEMPLATE = '{title} [{video_id}]';

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Room for the stem once the longest folder and extension (`json/`, `.json`) are taken off, so that
 * a video's files share one stem in every folder and scripts can pair them.
 */
const STEM_BUDGET_BYTES =
  MAX_ENTRY_PATH_BYTES - Math.max(...FILE_FORMATS.map((format) => byteLength(`${format}/.${format}`)));

/** The path of one transcript file inside the ZIP, e.g. `srt/007 - Never Gonna [dQw4w9WgXcQ].srt`. */
export function entryPath(format: FileFormat, stem: string): string {
  return `${format}/${stem}.${format}`;
}

/**
 * Characters no file name may hold on Windows, macOS or Linux (path separators, Windows' forbidden
 * set), control characters, and lone surrogates (which have no UTF-8 encoding). It holds `|`, index.csv's
 * PATH_LIST_SEPARATOR (schema.ts), so no entry path does.
 */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cs}/\\:*?"<>|]/gu;

/**
 * The invisible characters that set the direction of text: U+061C, U+200E, U+200F, U+202A-U+202E and
 * U+2066-U+2069. In a file name they can show `gpj.exe` as `exe.jpg`, disguising its extension.
 * They are removed, not replaced: right-to-left titles carry them legitimately, and read fine without.
 */
const BIDI_CONTROLS = /\p{Bidi_Control}/gu;

/**
 * NFC-normalised text without bidirectional controls, with each run of white space (line breaks,
 * tabs) turned into one space and every unsafe character into '_'.
 */
export function sanitizeNamePart(text: string): string {
  return text
    .normalize('NFC')
    .replace(BIDI_CONTROLS, '')
    .replace(/\s+/gu, ' ')
    .replace(UNSAFE_CHARACTERS, '_');
}

/**
 * Strips leading and trailing dots and spaces: Windows drops trailing ones silently, and a leading dot
 * would hide the file on macOS and Linux.
 */
function tidy(text: string): string {
  return text.replace(/^[\s.]+|[\s.]+$/gu, '');
}

/** Device names Windows reserves, with or without an extension (`NUL.txt` is reserved too). */
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/iu;

/**
 * Prefixes '_' when the part before the first dot is a reserved Windows device name. A head without a
 * dot is safe: the file name goes on with ` [<id>]` before its first dot.
 */
function avoidReservedName(head: string): string {
  const dot = head.indexOf('.');
  return dot >= 0 && WINDOWS_RESERVED.test(head.slice(0, dot).trimEnd()) ? `_${head}` : head;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends between two graphemes. */
export function truncateToBytes(text: string, maxBytes: number): string {
  if (byteLength(text) <= maxBytes) return text;
  let kept = '';
  let keptBytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = byteLength(segment);
    if (keptBytes + size > maxBytes) break;
    kept += segment;
    keptBytes += size;
  }
  return kept;
}

/**
 * Most bytes of a video id in a name. A real id has 11; an absurdly long one, which only a broken
 * service could send, is cut so that the name still fits MAX_ENTRY_PATH_BYTES.
 */
const MAX_ID_BYTES = 64;

/** The video id as it appears in names. */
function idForName(videoId: string): string {
  return truncateToBytes(sanitizeNamePart(videoId), MAX_ID_BYTES);
}

/**
 * The stem as a file system that ignores case sees it. Upper-casing first folds letters that only
 * upper-case to the same letter, such as ſ (long s) and s, which macOS takes for one.
 */
function caseKey(stem: string): string {
  return stem.toUpperCase().toLowerCase();
}

/** A video with its corpus number, zero-padded. */
interface NamedVideo {
  video: ExportVideo;
  position: string;
}

/**
 * Gives each video a file stem (the name without folder and extension) that is safe on every
 * platform, fits MAX_ENTRY_PATH_BYTES with any folder and extension, ends in `[<video_id>]`, and is
 * unique among the stems it handed out, ignoring case (Windows and macOS ignore it).
 *
 * A stem starts with the video's corpus number, six digits: `000007 - Title [id]` (or where the
 * template puts {position}). The number is fixed when the job first lists the video and never reused,
 * one numbering for the whole corpus rather than the position in each playlist or channel: videos of
 * different sources never share a number, files sort in index.csv's order, and a later version of the
 * corpus keeps every name it had.
 *
 * With a template that does not lead with the number, stems depend on the order videos are named in,
 * so name every ok video, in export order, even those whose file a format skips.
 */
export class StemNamer {
  readonly #template: string;
  readonly #templateHasPosition: boolean;
  /**
   * Whether every stem starts with its number (the default: the template has none, so it comes
   * first). Numbers differ and have one width, so those stems cannot clash, and none is kept.
   */
  readonly #positionLeads: boolean;
  /** Stems already handed out, by caseKey, when the position does not lead. */
  readonly #taken = new Set<string>();

  /** @param template placeholders {title} {video_id} {language} {position}; default DEFAULT_NAME_TEMPLATE. */
  constructor(template: string = DEFAULT_NAME_TEMPLATE) {
    this.#template = sanitizeNamePart(template);
    this.#templateHasPosition = template.includes('{position}');
    this.#positionLeads = !this.#templateHasPosition || this.#template.startsWith('{position}');
  }

  /** The video's stem, from its corpus number (video.number). */
  stemFor(video: ExportVideo): string {
    const named = { video, position: formatCorpusNumber(video.number) };
    if (this.#positionLeads) return this.#fittedStem(named, 1);
    for (let copy = 1; ; copy++) {
      const stem = this.#fittedStem(named, copy);
      const key = caseKey(stem);
      if (!this.#taken.has(key)) {
        this.#taken.add(key);
        return stem;
      }
    }
  }

  /** The stem for the `copy`th video that would get this name: ` (2)` and up go before ` [<id>]`. */
  #fittedStem(named: NamedVideo, copy: number): string {
    const { video } = named;
    const tail = `[${idForName(video.videoId)}]`;
    const compose = (head: string): string =>
      [head, copy > 1 ? `(${copy})` : '', tail].filter((part) => part !== '').join(' ');
    const title = sanitizeNamePart(video.title);

    let stem = compose(this.#head(named, title, tail));
    let excess = byteLength(stem) - STEM_BUDGET_BYTES;
    if (excess <= 0) return stem;

    // Too long: shorten the title first, since it is what makes names long.
    const shortTitle = truncateToBytes(title, byteLength(title) - excess);
    const head = this.#head(named, shortTitle, tail);
    stem = compose(head);
    excess = byteLength(stem) - STEM_BUDGET_BYTES;
    if (excess <= 0) return stem;

    // Still too long (a long template or language): cut the head itself, leaving room for a '_' prefix.
    return compose(avoidReservedName(tidy(truncateToBytes(head, byteLength(head) - excess - 1))));
  }

  /** What comes before ` (n) [<id>]`: position prefix, then the filled template minus a final `[<id>]`. */
  #head({ video, position }: NamedVideo, title: string, tail: string): string {
    const values: Record<string, string> = {
      title,
      video_id: idForName(video.videoId),
      language: sanitizeNamePart(video.language ?? ''),
      position,
    };
    const filled = this.#template.replace(/\{(title|video_id|language|position)\}/g, (_, key: string) => {
      return values[key] ?? '';
    });
    const prefix = this.#templateHasPosition ? '' : `${position} - `;
    let head = tidy(prefix + filled);
    if (head.endsWith(tail)) head = tidy(head.slice(0, -tail.length));
    return avoidReservedName(head);
  }
}
