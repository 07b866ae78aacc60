/**
 * The Transcript Service's limits (docs/service.md, "Limits" and the parameter tables), checked
 * before any request is sent: the server answers a value it rejects with a 422, which the request
 * policy treats as a bug in the client.
 *
 * Each checker returns `null` when the value is valid, or a plain-language reason naming the rule.
 */

import { ORIGINAL_TRACK } from './vocabulary';

/** Lengths in characters (code points), inclusive. */
export const LIMITS = {
  videoUrl: { min: 1, max: 2048 },
  lang: { max: 16 },
  playlist: { min: 1, max: 200 },
  continuation: { min: 1, max: 8192 },
  channelInput: { min: 1, max: 200 },
  searchQuery: { min: 1, max: 200 },
} as const;

/**
 * The longest line a face sends as a source (a `--from` line, an argument, a line of the paste box):
 * twice the longest source the service takes (LIMITS.videoUrl). A longer line is cut to it before it
 * crosses the contract, and refused all the same, as too long, by its line.
 */
export const MAX_SOURCE_LINE_CHARS = 4096;

/** The most sources one job takes (one command, one paste). */
export const MAX_SOURCES_PER_JOB = 200_000;

/** The longest language preference list ("es,en,orig"), in characters. */
export const MAX_LANGUAGE_LIST_CHARS = 200;

/** "--items has 2,000 characters: at most 1,000 are taken"; null when `value` is short enough. */
export function tooLong(name: string, value: string | undefined, max: number): string | null {
  if (value === undefined || value.length <= max) return null;
  return `${name} has ${value.length.toLocaleString('en')} characters: at most ${max.toLocaleString('en')} are taken`;
}

/**
 * The largest segment start or duration we accept: 10^7 seconds, about 115 days, longer than any
 * real video. A larger, negative or infinite time (JSON's 1e400 parses as Infinity) is a broken body,
 * and would only turn into absurd subtitle timings.
 */
export const MAX_SEGMENT_SECONDS = 10 ** 7;

/** The playlist ID prefixes the service accepts. */
export const PLAYLIST_PREFIXES = ['PL', 'UU', 'LL', 'FL', 'OL'] as const;

const LANG_PATTERN = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;
const PLAYLIST_CHARACTERS = /^[A-Za-z0-9_-]*$/;

/** Length in characters as the service counts them: code points, so an emoji counts once. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _codePoint of value) length++;
  return length;
}

function checkLength(
  value: string,
  limit: { min: number; max: number },
  what: string,
  howCounted = '',
): string | null {
  const length = codePointLength(value);
  if (length >= limit.min && length <= limit.max) return null;
  return `${what} must have ${limit.min} to ${limit.max} characters${howCounted} (this one has ${length})`;
}

export function checkVideoUrl(value: string): string | null {
  return checkLength(value, LIMITS.videoUrl, 'a video URL or ID');
}

export function checkLang(value: string): string | null {
  if (LANG_PATTERN.test(value) && value.length <= LIMITS.lang.max) return null;
  return (
    'a language code must look like en, es or pt-BR (2–3 letters, optional -region), ' +
    `at most ${LIMITS.lang.max} characters`
  );
}

export function checkPlaylistId(value: string): string | null {
  const lengthProblem = checkLength(value, LIMITS.playlist, 'a playlist ID');
  if (lengthProblem !== null) return lengthProblem;
  if (!PLAYLIST_PREFIXES.some((prefix) => value.startsWith(prefix))) {
    return `a playlist ID starts with ${PLAYLIST_PREFIXES.join(', ')}`;
  }
  if (!PLAYLIST_CHARACTERS.test(value)) return 'a playlist ID has only letters, digits, - and _';
  return null;
}

export function checkContinuation(value: string): string | null {
  return checkLength(value, LIMITS.continuation, 'a continuation cursor');
}

/** The `input` of channel/resolve, and the `channel` parameter of the channel endpoints. */
export function checkChannelInput(value: string): string | null {
  return checkLength(value, LIMITS.channelInput, 'a channel (@handle, URL or UC id)');
}

export function checkSearchQuery(value: string): string | null {
  return checkLength(value.trim(), LIMITS.searchQuery, 'a search query', ', not counting spaces around it');
}

/**
 * Parses a language preference list such as "es,en,orig": languages tried in order for each video.
 * `orig` (any case, returned as "orig") stands for the video's original track and may appear anywhere.
 * Duplicates are refused, comparing codes without regard to case as language tags do.
 */
export function parseLangPreference(
  text: string,
): { ok: true; langs: string[] } | { ok: false; reason: string } {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') {
    return { ok: false, reason: `the language list is empty: give codes such as es,en,${ORIGINAL_TRACK}` };
  }
  const langs: string[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    if (entry === '') {
      return { ok: false, reason: `entry ${index + 1} of the language list is empty (check the commas)` };
    }
    const lang = entry.toLowerCase() === ORIGINAL_TRACK ? ORIGINAL_TRACK : entry;
    const problem = lang === ORIGINAL_TRACK ? null : checkLang(lang);
    if (problem !== null) return { ok: false, reason: `"${entry}": ${problem}, or ${ORIGINAL_TRACK}` };
    if (seen.has(lang.toLowerCase())) {
      return { ok: false, reason: `"${entry}" appears twice in the language list` };
    }
    seen.add(lang.toLowerCase());
    langs.push(lang);
  }
  return { ok: true, langs };
}
