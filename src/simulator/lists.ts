/** Playlists and channel uploads: existence, size and the video at each position, from IDs alone. */
import { sizeFromSuffix } from './channel-ids';
import { channelFacts, channelSize, uploadVideoId } from './channels';
import type { ChannelFacts, Uploads } from './channels';
import type { PlaylistEditBook } from './playlist-edits';
import { hash32, rngFor } from './random';
import { titleText } from './text';

/** Videos per page of playlist/videos and channel/videos, unless the simulator is given another. */
export const DEFAULT_PAGE_SIZE = 100;

/** What a playlist's listing needs of the catalog's state: the uploads and the edits made so far. */
export interface ListState {
  uploads?: Uploads;
  edits?: Pick<PlaylistEditBook, 'videos'>;
}

/** IDs (playlists, channels, handles) containing "missing" do not exist: a simple way to get a 404. */
export function isMissing(id: string): boolean {
  return /missing/i.test(id);
}

/**
 * `PLpool<name>_from<K>_n<N>` lists the videos K to K+N-1 of the shared pool <name>, so playlists of
 * one pool hold the same videos where their ranges meet (each at its own position): a deterministic
 * way to get lists that overlap, as a channel and its uploads playlist do.
 */
const POOL_PLAYLIST = /^PLpool([A-Za-z0-9]+)_from(\d{1,6})_n\d{1,9}$/;

/** 'UUabc…' is the uploads playlist of channel 'UCabc…'. */
function uploadsChannelOf(playlistId: string): string | null {
  return playlistId.startsWith('UU') ? `UC${playlistId.slice(2)}` : null;
}

/**
 * A `_n<digits>` suffix fixes the size (0 allowed), else seeded 1-250; UU playlists mirror their channel.
 * `PLsimTourList_n120` has 120 videos: an ID of realistic length (PL + 16 or 32 characters), since the
 * app reads a bare 11-character ID such as `PLdemo_n120` as a video. An edited playlist has the size
 * its edits left.
 */
export function playlistSize(playlistId: string, seed: number, state: ListState = {}): number {
  const edited = state.edits?.videos(playlistId);
  if (edited !== undefined) return edited.length;
  const channelId = uploadsChannelOf(playlistId);
  if (channelId) return channelSize(channelId, seed, state.uploads);
  return sizeFromSuffix(playlistId) ?? 1 + (hash32(seed, 'playlist-size', playlistId) % 250);
}

/**
 * The video at a 1-based position of a playlist (for an uploads playlist, with what the uploads
 * added; for an edited one, as its edits left it).
 */
export function playlistVideoId(
  playlistId: string,
  position: number,
  seed: number,
  state: ListState = {},
): string {
  const edited = state.edits?.videos(playlistId);
  if (edited !== undefined) return edited[position - 1] ?? '';
  const channelId = uploadsChannelOf(playlistId);
  if (channelId) return uploadVideoId(channelId, position, seed, state.uploads);
  const pool = POOL_PLAYLIST.exec(playlistId);
  if (pool) return rngFor(seed, 'pool-item', pool[1] ?? '', Number(pool[2]) + position - 1).idChars(11);
  return rngFor(seed, 'playlist-item', playlistId, position).idChars(11);
}

/** The channel that owns a playlist (for UU playlists, the channel whose uploads it lists). */
export function playlistOwner(playlistId: string, seed: number, uploads?: Uploads): ChannelFacts {
  const channelId = uploadsChannelOf(playlistId) ?? `UC${rngFor(seed, 'owner', playlistId).idChars(22)}`;
  return channelFacts(channelId, seed, uploads);
}

export interface PlaylistInfo {
  title: string;
  num_videos: string;
  description: string;
  owner_name: string;
  view_count: string;
}

export function playlistInfo(playlistId: string, seed: number, state: ListState = {}): PlaylistInfo {
  const owner = playlistOwner(playlistId, seed, state.uploads);
  const rng = rngFor(seed, 'playlist-info', playlistId);
  const isUploads = playlistId.startsWith('UU');
  return {
    title: isUploads ? `Uploads from ${owner.title}` : titleText(rng),
    num_videos: String(playlistSize(playlistId, seed, state)),
    description: isUploads ? '' : `A playlist by ${owner.title}.`,
    owner_name: owner.title,
    view_count: String(rng.int(0, 10_000_000)),
  };
}

/** The uploads list of a channel, as channel/videos pages it (same videos as its UU playlist). */
export function channelUploadsInfo(channelId: string, seed: number, uploads?: Uploads): PlaylistInfo {
  return playlistInfo(`UU${channelId.slice(2)}`, seed, { uploads });
}

/** Positions (1-based) on the page of `pageSize` items that starts after `offset` items. */
export function pagePositions(size: number, offset: number, pageSize = DEFAULT_PAGE_SIZE): number[] {
  const positions: number[] = [];
  for (let position = offset + 1; position <= Math.min(size, offset + pageSize); position++) {
    positions.push(position);
  }
  return positions;
}
