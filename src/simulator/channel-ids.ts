/**
 * Channel IDs made from handles carry their own upload count, so channel/videos can answer for an ID
 * that channel/resolve produced earlier (or in another process) without keeping any state.
 *
 * Layout of the 22 characters after 'UC': 14 from a hash of the handle, 5 holding the upload count in
 * base64url, 3 of checksum over the first 19 (so a foreign UC id is almost never mistaken for one of ours).
 */
import { ID_ALPHABET, hash32, rngFor } from './random';

const HASH_CHARS = 14;
const SIZE_CHARS = 5;
const CHECK_CHARS = 3;
/** Handles are not seeded (channelIdForHandle takes no seed), so their sizes use this fixed one. */
const HANDLE_SEED = 0x5c41;
/** At most nine digits: the largest count that fits the five size characters. */
const SIZE_SUFFIX = /_n(\d{1,9})$/;

/** The size an ID asks for with a trailing `_n<digits>`, else null. */
export function sizeFromSuffix(id: string): number | null {
  const digits = SIZE_SUFFIX.exec(id)?.[1];
  return digits === undefined ? null : Number(digits);
}

/** '@Some.Name' and 'some.name' are the same handle. */
function normalizeHandle(handle: string): string {
  return handle.replace(/^@/, '').toLowerCase();
}

function encodeNumber(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ID_ALPHABET.charAt(rest % 64) + out;
    rest = Math.floor(rest / 64);
  }
  return out;
}

function decodeNumber(chars: string): number | null {
  let value = 0;
  for (const char of chars) {
    const digit = ID_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 64 + digit;
  }
  return value;
}

function checksum(body: string): string {
  return encodeNumber(hash32(HANDLE_SEED, body) % 64 ** CHECK_CHARS, CHECK_CHARS);
}

/** Upload count of a handle: `name_n<digits>` asks for exactly that many (`@demo_channel_n40` has 40),
 *  else 1-250 from its hash. */
function handleSize(handle: string): number {
  const name = normalizeHandle(handle);
  return sizeFromSuffix(name) ?? 1 + (hash32(HANDLE_SEED, 'size', name) % 250);
}

export function channelIdFromHandle(handle: string): string {
  const name = normalizeHandle(handle);
  const body =
    rngFor(HANDLE_SEED, 'handle', name).idChars(HASH_CHARS) + encodeNumber(handleSize(name), SIZE_CHARS);
  return `UC${body}${checksum(body)}`;
}

/** The upload count encoded in a channel ID made by channelIdFromHandle, else null. */
export function sizeEncodedInChannelId(channelId: string): number | null {
  const suffix = channelId.slice(2);
  if (suffix.length !== HASH_CHARS + SIZE_CHARS + CHECK_CHARS) return null;
  const body = suffix.slice(0, HASH_CHARS + SIZE_CHARS);
  if (checksum(body) !== suffix.slice(HASH_CHARS + SIZE_CHARS)) return null;
  return decodeNumber(body.slice(HASH_CHARS));
}
