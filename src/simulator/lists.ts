/** Playlists and channel uploads: existence, size and the video at each position, from IDs alone. */
import { sizeFromSuffix } from './channel-ids';
import { channelFacts, channelSize, uploadVideoId } from './channels';
import type { ChannelFacts } from './channels';
import { hash32, rngFor } from './random';
import { titleText } from './text';

/** Videos per page of playlist/videos and channel/videos. */
const PAGE_SIZE = 100;

/** IDs (playlists, channels, handles) containing "missing" do not exist: a simple way to get a 404. */
export function isMissing(id: string): boolean {
  return /missing/i.test(id);
}

/** 'UUabc…' is the uploads playlist of channel 'UCabc…'. */
function uploadsChannelOf(playlistId: string): string | null {
  return playlistId.startsWith('UU') ? `UC${playlistId.slice(2)}` : null;
}

/**
 * A `_n<digits>` suffix fixes the size (0 allowed), else seeded 1-250; UU playlists mirror their channel.
 * `PLsimTourList_n120` has 120 videos: an ID of realistic length (PL + 16 or 32 characters), since the
 * app reads a bare 11-character ID such as `PLdemo_n120` as a video.
 */
export function playlistSize(playlistId: string, seed: number): number {
  const channelId = uploadsChannelOf(playlistId);
  if (channelId) return channelSize(channelId, seed);
  return sizeFromSuffix(playlistId) ?? 1 + (hash32(seed, 'playlist-size', playlistId) % 250);
}

/** The video at a 1-based position of a playlist. */
export function playlistVideoId(playlistId: string, position: number, seed: number): string {
  const channelId = uploadsChannelOf(playlistId);
  if (channelId) return uploadVideoId(channelId, position, seed);
  return rngFor(seed, 'playlist-item', playlistId, position).idChars(11);
}

/** The channel that owns a playlist (for UU playlists, the channel whose uploads it lists). */
export function playlistOwner(playlistId: string, seed: number): ChannelFacts {
  const channelId = uploadsChannelOf(playlistId) ?? `UC${rngFor(seed, 'owner', playlistId).idChars(22)}`;
  return channelFacts(channelId, seed);
}

export interface PlaylistInfo {
  title: string;
  num_videos: string;
  description: string;
  owner_name: string;
  view_count: string;
}

export function playlistInfo(playlistId: string, seed: number): PlaylistInfo {
  const owner = playlistOwner(playlistId, seed);
  const rng = rngFor(seed, 'playlist-info', playlistId);
  const isUploads = playlistId.startsWith('UU');
  return {
    title: isUploads ? `Uploads from ${owner.title}` : titleText(rng),
    num_videos: String(playlistSize(playlistId, seed)),
    description: isUploads ? '' : `A playlist by ${owner.title}.`,
    owner_name: owner.title,
    view_count: String(rng.int(0, 10_000_000)),
  };
}

/** The uploads list of a channel, as channel/videos pages it (same videos as its UU playlist). */
export function channelUploadsInfo(channelId: string, seed: number): PlaylistInfo {
  return playlistInfo(`UU${channelId.slice(2)}`, seed);
}

/** Positions (1-based) on the page that starts after `offset` items. */
export function pagePositions(size: number, offset: number): number[] {
  const positions: number[] = [];
  for (let position = offset + 1; position <= Math.min(size, offset + PAGE_SIZE); position++) {
    positions.push(position);
  }
  return positions;
}
