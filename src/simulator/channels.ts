/** What the catalog says about a channel, derived from its ID alone. */
import { sizeEncodedInChannelId, sizeFromSuffix } from './channel-ids';
import { hash32, rngFor } from './random';
import { channelName } from './text';
import type { UploadBook } from './uploads';

export interface ChannelFacts {
  channelId: string;
  title: string;
  /** '@name' */
  handle: string;
  verified: boolean;
  subscriberCount: number;
  /** Number of uploads. */
  size: number;
}

/** What a channel's listings need of the uploads added while the simulator runs (uploads.ts). */
export type Uploads = Pick<UploadBook, 'count' | 'videoId'>;

const NO_UPLOADS: Uploads = { count: () => 0, videoId: () => '' };

/**
 * Upload count: encoded by channelIdForHandle, else a trailing `_n<digits>`, else seeded 1-250; plus
 * what was added since the simulator started.
 */
export function channelSize(channelId: string, seed: number, added: Uploads = NO_UPLOADS): number {
  return (
    (sizeEncodedInChannelId(channelId) ??
      sizeFromSuffix(channelId) ??
      1 + (hash32(seed, 'channel-size', channelId) % 250)) + added.count(channelId)
  );
}

export function channelFacts(channelId: string, seed: number, added: Uploads = NO_UPLOADS): ChannelFacts {
  const rng = rngFor(seed, 'channel', channelId);
  const title = channelName(rng);
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return {
    channelId,
    title,
    handle: `@${slug}${rng.int(1, 999)}`,
    verified: rng.chance(0.3),
    subscriberCount: rng.int(10, 5_000_000),
    size: channelSize(channelId, seed, added),
  };
}

/** The uploads of a channel, newest first: position 1 is the latest (an added one, when there are). */
export function uploadVideoId(
  channelId: string,
  position: number,
  seed: number,
  added: Uploads = NO_UPLOADS,
): string {
  const newer = added.count(channelId);
  // The k-th upload added has k = newer - position + 1, so adding more never renames the earlier ones.
  if (position <= newer) return added.videoId(channelId, newer - position + 1);
  return rngFor(seed, 'upload', channelId, position - newer).idChars(11);
}
