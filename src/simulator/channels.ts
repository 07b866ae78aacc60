/** What the catalog says about a channel, derived from its ID alone. */
import { sizeEncodedInChannelId, sizeFromSuffix } from './channel-ids';
import { hash32, rngFor } from './random';
import { channelName } from './text';

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

/** Upload count: encoded by channelIdForHandle, else a trailing `_n<digits>`, else seeded 1-250. */
export function channelSize(channelId: string, seed: number): number {
  return (
    sizeEncodedInChannelId(channelId) ??
    sizeFromSuffix(channelId) ??
    1 + (hash32(seed, 'channel-size', channelId) % 250)
  );
}

export function channelFacts(channelId: string, seed: number): ChannelFacts {
  const rng = rngFor(seed, 'channel', channelId);
  const title = channelName(rng);
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return {
    channelId,
    title,
    handle: `@${slug}${rng.int(1, 999)}`,
    verified: rng.chance(0.3),
    subscriberCount: rng.int(10, 5_000_000),
    size: channelSize(channelId, seed),
  };
}

/** The uploads of a channel, newest first: position 1 is the latest. */
export function uploadVideoId(channelId: string, position: number, seed: number): string {
  return rngFor(seed, 'upload', channelId, position).idChars(11);
}
