/** Recognises the ID and URL forms docs/service.md lists for videos, playlists and channels. */

const VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID_PATTERN = /^UC[A-Za-z0-9_-]{22}$/;
const PLAYLIST_ID_PATTERN = /^(?:PL|UU|LL|FL|OL)[A-Za-z0-9_-]+$/;
const HANDLE_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
const VIDEO_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtu.be',
  'www.youtube-nocookie.com',
]);
const VIDEO_PATH_PREFIXES = ['shorts', 'embed', 'live', 'v'];
const CHANNEL_TABS = new Set(['videos', 'shorts', 'streams', 'featured']);

/** A channel reference: a UC id, or a name (from @handle, /c/name or /user/name) still to resolve. */
export type ChannelRef = { kind: 'id'; channelId: string } | { kind: 'handle'; handle: string };

/** Parses "https://…", "www.…" or "youtu.be/…" as a URL on a known host, else null. */
function toPlatformUrl(input: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  return VIDEO_HOSTS.has(url.hostname.toLowerCase()) ? url : null;
}

function pathSegments(url: URL): string[] {
  return url.pathname.split('/').filter((segment) => segment.length > 0);
}

/** The 11-character video ID in a bare ID or any video URL form, else null. */
export function parseVideoId(input: string): string | null {
  if (VIDEO_ID_PATTERN.test(input)) return input;
  const url = toPlatformUrl(input);
  if (!url) return null;
  const segments = pathSegments(url);
  let candidate: string | null | undefined;
  if (url.hostname.toLowerCase() === 'youtu.be') candidate = segments[0];
  else if (segments[0] === 'watch') candidate = url.searchParams.get('v');
  else if (segments[0] !== undefined && VIDEO_PATH_PREFIXES.includes(segments[0])) candidate = segments[1];
  return candidate && VIDEO_ID_PATTERN.test(candidate) ? candidate : null;
}

/** The playlist ID (PL, UU, LL, FL or OL prefix) in a bare ID or a URL carrying list=ID, else null. */
export function parsePlaylistId(input: string): string | null {
  if (PLAYLIST_ID_PATTERN.test(input)) return input;
  const list = toPlatformUrl(input)?.searchParams.get('list');
  return list && PLAYLIST_ID_PATTERN.test(list) ? list : null;
}

/** An @handle, a bare UC id or a channel URL (/channel/UC…, /@handle, /c/name, /user/name), else null. */
export function parseChannelInput(input: string): ChannelRef | null {
  if (CHANNEL_ID_PATTERN.test(input)) return { kind: 'id', channelId: input };
  if (input.startsWith('@')) return handleRef(input.slice(1));
  const url = toPlatformUrl(input);
  if (!url) return null;
  const [first, second, tab, ...rest] = pathSegments(url);
  if (first === undefined || rest.length > 0) return null;
  if (first.startsWith('@')) {
    // /@handle/videos: the tab sits where `second` is.
    if (tab !== undefined || (second !== undefined && !CHANNEL_TABS.has(second))) return null;
    return handleRef(first.slice(1));
  }
  if (second === undefined || (tab !== undefined && !CHANNEL_TABS.has(tab))) return null;
  if (first === 'channel') return CHANNEL_ID_PATTERN.test(second) ? { kind: 'id', channelId: second } : null;
  if (first === 'c' || first === 'user') return handleRef(second);
  return null;
}

function handleRef(handle: string): ChannelRef | null {
  return HANDLE_PATTERN.test(handle) ? { kind: 'handle', handle } : null;
}
