/**
 * The model's corner of the simulator's catalog: the lists and videos its jobs draw from, the forms a
 * user types them in, and the model's own reading of those forms (kind and ID), written apart from
 * src/shared/sources.ts.
 */
import { channelIdForHandle, describeChannel, describePlaylist } from '../../src/simulator';

export const CHANNELS = {
  A: '@modelChannelA_n12',
  B: '@modelChannelB_n26',
  /** A channel of many pages, for walks resumed mid-list and syncs that stop at a page with nothing new. */
  L: '@modelChannelLong_n260',
} as const;
export type ChannelName = keyof typeof CHANNELS;

export const uploadsOf = (handle: string): string => `UU${channelIdForHandle(handle).slice(2)}`;

/** The names a list of a channel's uploads goes by: the channel (@handle, UC id) and its uploads playlist. */
export function namesOfChannel(handle: string): string[] {
  return [handle, channelIdForHandle(handle), uploadsOf(handle)];
}

/** Two playlists of one pool: videos 6 to 10 are in both, at other positions. */
export const POOLED = ['PLpoolModel_from1_n10', 'PLpoolModel_from6_n12'] as const;
export const PLAIN = 'PLmodelPlainListing_n7';
/** A playlist of many pages. */
export const LONG = 'PLmodelLongListing_n255';
/** The playlists whose owner edits them (videos appended, removed, moved). */
export const EDITABLE: readonly string[] = [PLAIN, POOLED[1], 'PLmodelEditedListing_n9', LONG];

/** Every playlist and channel the sources draw from. */
export const LISTS: readonly string[] = [
  CHANNELS.A,
  CHANNELS.B,
  CHANNELS.L,
  uploadsOf(CHANNELS.A),
  uploadsOf(CHANNELS.B),
  ...POOLED,
  PLAIN,
  EDITABLE[2]!,
  LONG,
];

/** Videos given alone: one in both pooled playlists, one of channel A, one without captions, one in no list. */
export const VIDEOS: readonly string[] = [
  describePlaylist(POOLED[0]).videoIds()[6]!,
  describeChannel(CHANNELS.A).videoIds()[2]!,
  'nocapModel1',
  'standAlone1',
];

export const SEARCH = 'search:river engine';

export type SourceKind = 'video' | 'playlist' | 'channel' | 'search';

/** How a user may type a source: its ID, or one of its addresses. */
export type SourceForm = 'id' | 'url' | 'uc' | 'ucUrl' | 'tab';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

/** The source as typed in `form` (a form that does not fit the kind gives its ID). */
export function typed(source: string, form: SourceForm): string {
  const kind = kindOf(source);
  if (kind === 'search') return source;
  if (kind === 'video') return form === 'url' ? `https://youtu.be/${source}` : source;
  if (kind === 'playlist') return form === 'url' ? `https://www.youtube.com/playlist?list=${source}` : source;
  const handle = source.slice(1);
  switch (form) {
    case 'url':
      return `https://www.youtube.com/@${handle}`;
    case 'tab':
      return `https://www.youtube.com/@${handle}/videos`;
    case 'uc':
      return channelIdForHandle(source);
    case 'ucUrl':
      return `https://www.youtube.com/channel/${channelIdForHandle(source)}`;
    case 'id':
      return source;
  }
}

/** The kind of a source as the model writes them (an ID, `@handle`, `search:`, or an address). */
export function kindOf(source: string): SourceKind {
  if (source.startsWith('search:')) return 'search';
  if (source.startsWith('@') || CHANNEL_ID.test(source) || /youtube\.com\/(@|channel\/)/.test(source))
    return 'channel';
  if (VIDEO_ID.test(source) || source.startsWith('https://youtu.be/')) return 'video';
  return 'playlist';
}

/**
 * What a typed source names, as the simulator's describers take it: a video or playlist ID, an
 * @handle or a UC id, or the search's words. Two sources are the same when kind and this agree.
 */
export function canonical(source: string): string {
  switch (kindOf(source)) {
    case 'search':
      return source.slice('search:'.length);
    case 'video':
      return source.replace('https://youtu.be/', '');
    case 'playlist':
      return source.replace('https://www.youtube.com/playlist?list=', '');
    case 'channel': {
      const handle = /youtube\.com\/(@[^/]+)/.exec(source)?.[1];
      if (handle !== undefined) return handle;
      return /youtube\.com\/channel\/(UC[^/]+)/.exec(source)?.[1] ?? source;
    }
  }
}
