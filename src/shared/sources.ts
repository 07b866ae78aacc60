/**
 * Classifies whatever a user pastes as a source (a video, a playlist, a channel or a search) and
 * checks it against the service's limits, so that a bad source is reported before any request.
 * The URL forms are those of docs/service.md.
 */
import {
  LIMITS,
  PLAYLIST_PREFIXES,
  checkChannelInput,
  checkPlaylistId,
  checkSearchQuery,
  checkVideoUrl,
  codePointLength,
} from './limits';
import { SOURCE_KIND, type SourceKind } from './vocabulary';

export interface Source {
  kind: SourceKind;
  /** video: the 11-char ID; playlist: the playlist ID; channel: a UC id, an @handle, or a canonical
   *  https://www.youtube.com/c/NAME or /user/NAME URL (what channel/resolve's `input` accepts);
   *  search: the query text (trimmed). */
  id: string;
  /** What the user typed, trimmed. */
  input: string;
}

/** An accepted source may come with a warning: it was read one way, and the user may have meant another. */
export type SourceCheck =
  { ok: true; source: Source; warning?: string } | { ok: false; input: string; reason: string };

type Classification = { kind: SourceKind; id: string; warning?: string } | { reason: string };

const EXPECTED =
  'expected a video ID or URL, a playlist ID or URL, a channel @handle, URL or UC id, or search:<query>';
const NOT_A_SOURCE = `not a video, playlist, channel or search: ${EXPECTED}`;
const BAD_VIDEO_ID = 'a video ID has 11 characters (letters, digits, - and _)';
const BAD_CHANNEL_ID = 'a channel ID is UC followed by 22 characters (letters, digits, - and _)';
const BAD_HANDLE = 'a channel @handle has 3 to 30 characters: ASCII letters, digits, ., _ and -';
const NON_ASCII_REFUSED = 'the service refuses accented and other non-ASCII letters';
const NON_ASCII_HANDLE = `a channel @handle takes only ASCII letters, digits, ., _ and -: ${NON_ASCII_REFUSED}`;
const BAD_CHANNEL_NAME = 'a /c/ or /user/ channel name has only ASCII letters, digits, ., _ and -';
const NON_ASCII_CHANNEL_NAME = `a /c/ or /user/ channel name takes only ASCII letters, digits, ., _ and -: ${NON_ASCII_REFUSED}`;
const LOOKS_LIKE_A_LIST =
  'read as a video ID because it has 11 characters; playlist IDs are longer (18 or 34 characters for PL ones) ' +
  'and channel IDs have 24: paste the full URL if you meant a playlist or channel';
const UNKNOWN_PAGE =
  'this address is not a video, playlist or channel: expected watch?v=, youtu.be/, /shorts/, /embed/, ' +
  '/live/, /v/, list=, /channel/, /@handle, /c/ or /user/';
/** Pages that name their subject in a query parameter, and what to say when it is missing. */
const MISSING_PARAMETER: Readonly<Record<string, string>> = {
  watch: 'a watch address needs v=<video ID>',
  playlist: 'a playlist address needs list=<playlist ID>',
};

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
// The service takes ASCII handles and names only, although the platform allows other scripts.
const HANDLE = /^@[A-Za-z0-9._-]{3,30}$/;
const CHANNEL_NAME = /^[A-Za-z0-9._-]+$/;
const NON_ASCII = /\P{ASCII}/u;
/** How the IDs of playlists and channels start. */
const LIST_PREFIXES: readonly string[] = [...PLAYLIST_PREFIXES, 'UC'];
const BARE_ID = /^[A-Za-z0-9_-]+$/;
const SEARCH_PREFIX = 'search:';
const WITH_SCHEME = /^(?:[a-z][a-z0-9+.-]*:\/\/|https?:)/i;
const HOST_FIRST = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:[/?#]|$)/i;

const SHORT_LINK_HOST = 'youtu.be';
const YOUTUBE_HOSTS: ReadonlySet<string> = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
/** Paths of the form /<word>/<video ID>. */
const VIDEO_PATHS: ReadonlySet<string> = new Set(['shorts', 'embed', 'live', 'v']);
/** Channel tabs that may follow a channel address and still mean the whole channel. */
const CHANNEL_TABS: ReadonlySet<string> = new Set(['videos', 'shorts', 'streams', 'featured']);

export function parseSource(text: string): SourceCheck {
  const input = text.trim();
  const classified = classify(input);
  if ('reason' in classified) return { ok: false, input, reason: classified.reason };
  const limitProblem = checkIdLimits(classified);
  if (limitProblem !== null) return { ok: false, input, reason: limitProblem };
  const { kind, id, warning } = classified;
  return { ok: true, source: { kind, id, input }, ...(warning !== undefined && { warning }) };
}

/** Lines of a --from file: skips blank lines and lines whose first non-space char is '#';
 *  keeps the 1-based line number of each remaining line. Handles \r\n and a UTF-8 BOM. */
export function readSourceLines(fileText: string): Array<{ line: number; text: string }> {
  const text = fileText.startsWith('\uFEFF') ? fileText.slice(1) : fileText;
  return text.split(/\r\n|\r|\n/).flatMap((rawLine, index) => {
    const line = rawLine.trim();
    return line === '' || line.startsWith('#') ? [] : [{ line: index + 1, text: line }];
  });
}

/** Checks many entries; `where` labels each (e.g. "line 3" or "argument 2"). Duplicate sources
 *  (same kind and id) are reported as invalid ("already listed at line 1") so nothing is queued twice.
 *  Valid sources read in a way the user may not have meant are also listed in `warnings`. */
export function checkSources(entries: Array<{ where: string; text: string }>): {
  valid: Array<{ where: string; source: Source }>;
  invalid: Array<{ where: string; input: string; reason: string }>;
  warnings: Array<{ where: string; input: string; warning: string }>;
} {
  const valid: Array<{ where: string; source: Source }> = [];
  const invalid: Array<{ where: string; input: string; reason: string }> = [];
  const warnings: Array<{ where: string; input: string; warning: string }> = [];
  const firstListedAt = new Map<string, string>();
  for (const { where, text } of entries) {
    const check = parseSource(text);
    if (!check.ok) {
      invalid.push({ where, input: check.input, reason: check.reason });
      continue;
    }
    const key = sameSourceKey(check.source);
    const earlier = firstListedAt.get(key);
    if (earlier !== undefined) {
      invalid.push({ where, input: check.source.input, reason: `already listed at ${earlier}` });
      continue;
    }
    firstListedAt.set(key, where);
    valid.push({ where, source: check.source });
    if (check.warning !== undefined)
      warnings.push({ where, input: check.source.input, warning: check.warning });
  }
  return { valid, invalid, warnings };
}

/** One line a user reads, e.g. `line 3: "youtube.com/watch?v=abc" is not a valid source: a video ID has 11 characters (letters, digits, - and _)` */
export function describeInvalid(entry: { where: string; input: string; reason: string }): string {
  return `${entry.where}: ${quoteForDisplay(entry.input)} is not a valid source: ${entry.reason}`;
}

/** One line a user reads, e.g. `argument 1: "PLabcdefghi" is read as a video ID because it has 11 characters; …` */
export function describeWarning(entry: { where: string; input: string; warning: string }): string {
  return `${entry.where}: ${quoteForDisplay(entry.input)} is ${entry.warning}`;
}

function classify(input: string): Classification {
  if (input === '') return { reason: `the source is empty: ${EXPECTED}` };
  // Nothing longer than the service's largest limit can be sent, whatever it turns out to be; said
  // without a count, since a line longer than MAX_SOURCE_LINE_CHARS arrives cut.
  if (codePointLength(input) > LIMITS.videoUrl.max) {
    return {
      reason: `too long: a source has at most ${LIMITS.videoUrl.max} characters (the video_url limit)`,
    };
  }
  if (input.slice(0, SEARCH_PREFIX.length).toLowerCase() === SEARCH_PREFIX) {
    const query = input.slice(SEARCH_PREFIX.length).trim();
    const problem = checkSearchQuery(query);
    return problem === null ? { kind: SOURCE_KIND.search, id: query } : { reason: problem };
  }
  if (input.startsWith('@')) return classifyHandle(input);
  if (BARE_ID.test(input)) return classifyBareId(input);
  if (WITH_SCHEME.test(input) || HOST_FIRST.test(input)) return classifyUrl(input);
  return { reason: NOT_A_SOURCE };
}

function classifyHandle(handle: string): Classification {
  if (HANDLE.test(handle)) return { kind: SOURCE_KIND.channel, id: handle };
  return { reason: NON_ASCII.test(handle) ? NON_ASCII_HANDLE : BAD_HANDLE };
}

function classifyBareId(id: string): Classification {
  // Checked in this order because an 11-character ID is a video even when it starts with PL or UC,
  // but then the user may have pasted part of a list's ID, or a made-up one.
  if (VIDEO_ID.test(id)) {
    const looksLikeAList = LIST_PREFIXES.some((prefix) => id.startsWith(prefix));
    return { kind: SOURCE_KIND.video, id, ...(looksLikeAList && { warning: LOOKS_LIKE_A_LIST }) };
  }
  if (CHANNEL_ID.test(id)) return { kind: SOURCE_KIND.channel, id };
  if (PLAYLIST_PREFIXES.some((prefix) => id.startsWith(prefix))) return classifyPlaylistId(id);
  if (id.startsWith('UC')) return { reason: BAD_CHANNEL_ID };
  return { reason: NOT_A_SOURCE };
}

function classifyPlaylistId(id: string): Classification {
  const problem = checkPlaylistId(id);
  return problem === null ? { kind: SOURCE_KIND.playlist, id } : { reason: problem };
}

function classifyVideoId(id: string): Classification {
  return VIDEO_ID.test(id) ? { kind: SOURCE_KIND.video, id } : { reason: BAD_VIDEO_ID };
}

function classifyUrl(input: string): Classification {
  const url = parseUrl(WITH_SCHEME.test(input) ? input : `https://${input}`);
  if (url === null) return { reason: 'this address cannot be read as a URL' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { reason: 'only http:// and https:// addresses are accepted' };
  }
  const isShortLink = url.hostname === SHORT_LINK_HOST;
  if (!isShortLink && !YOUTUBE_HOSTS.has(url.hostname)) {
    return {
      reason: `${url.hostname} is not a YouTube address (youtube.com, youtu.be or youtube-nocookie.com)`,
    };
  }
  const segments = pathSegments(url.pathname);
  if (segments === null) return { reason: 'the address has a badly encoded path (a stray %)' };
  const params = url.searchParams;

  // A video address that also carries list= still names the video the user was watching.
  const videoId = isShortLink ? shortLinkVideoId(segments) : pageVideoId(segments, params);
  if (videoId !== undefined) return classifyVideoId(videoId);
  const list = params.get('list');
  if (list !== null) return classifyPlaylistId(list);
  if (isShortLink) return { reason: 'a youtu.be address is youtu.be/<video ID>' };
  const page = segments[0]?.toLowerCase() ?? '';
  return classifyChannelPath(segments) ?? { reason: MISSING_PARAMETER[page] ?? UNKNOWN_PAGE };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** The decoded, non-empty segments of a path (so doubled and trailing slashes do not matter). */
function pathSegments(pathname: string): string[] | null {
  const segments: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '') continue;
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return null;
    }
  }
  return segments;
}

function shortLinkVideoId(segments: string[]): string | undefined {
  return segments.length === 1 ? segments[0] : undefined;
}

/** The video a youtube.com page names, if it names one: /watch?v=ID or /<shorts|embed|live|v>/ID. */
function pageVideoId(segments: string[], params: URLSearchParams): string | undefined {
  const [first, second, ...rest] = segments;
  if (first === undefined || (first.toLowerCase() === 'watch' && second === undefined)) {
    return params.get('v') ?? undefined;
  }
  if (second === undefined || rest.length > 0 || !VIDEO_PATHS.has(first.toLowerCase())) return undefined;
  // /embed/videoseries?list=… embeds a playlist; "videoseries" merely happens to have 11 letters.
  if (first.toLowerCase() === 'embed' && second === 'videoseries' && params.has('list')) return undefined;
  return second;
}

/** /channel/UC…, /@handle, /c/NAME or /user/NAME, optionally followed by one channel tab. */
function classifyChannelPath(segments: string[]): Classification | null {
  const [first, ...rest] = segments;
  if (first === undefined) return null;
  const isHandle = first.startsWith('@');
  const names = isHandle ? [] : rest.slice(0, 1);
  const tabs = rest.slice(names.length);
  const tab = tabs[0];
  if (tabs.length > 1 || (tab !== undefined && !CHANNEL_TABS.has(tab.toLowerCase()))) return null;
  if (isHandle) return classifyHandle(first);

  const [name] = names;
  if (name === undefined) return null;
  // The path's first segment: /channel/UC…, or a legacy /c/NAME or /user/NAME.
  const page = first.toLowerCase();
  if (page === 'channel')
    return CHANNEL_ID.test(name) ? { kind: SOURCE_KIND.channel, id: name } : { reason: BAD_CHANNEL_ID };
  if (page !== 'c' && page !== 'user') return null;
  if (!CHANNEL_NAME.test(name))
    return { reason: NON_ASCII.test(name) ? NON_ASCII_CHANNEL_NAME : BAD_CHANNEL_NAME };
  return { kind: SOURCE_KIND.channel, id: `https://www.youtube.com/${page}/${name}` };
}

function checkIdLimits({ kind, id }: { kind: SourceKind; id: string }): string | null {
  switch (kind) {
    case SOURCE_KIND.video:
      return checkVideoUrl(id);
    case SOURCE_KIND.playlist:
      return checkPlaylistId(id);
    case SOURCE_KIND.channel:
      return checkChannelInput(id);
    case SOURCE_KIND.search:
      return checkSearchQuery(id);
  }
}

/** Handles and /c/ or /user/ names are case-insensitive on the platform; IDs are not. */
function sameSourceKey({ kind, id }: Source): string {
  const caseInsensitive = kind === SOURCE_KIND.channel && !CHANNEL_ID.test(id);
  return `${kind}:${caseInsensitive ? id.toLowerCase() : id}`;
}

/** The input in quotes, with control characters escaped and a long input shortened. */
function quoteForDisplay(input: string): string {
  const characters = Array.from(input);
  const shown = characters.length > 80 ? `${characters.slice(0, 79).join('')}…` : input;
  return JSON.stringify(shown);
}
