/**
 * Video and channel items as the endpoints send them: snake_case for playlist/videos (docs/service.md),
 * camelCase for search, channel/search, channel/videos and channel/latest (docs/service.md).
 */
import type { ChannelFacts } from './channels';
import { CATALOG_NOW, lengthText, videoFacts } from './videos';
import type { VideoFacts } from './videos';

interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

const DAY_MS = 86_400_000;

function thumbnails(videoId: string): Thumbnail[] {
  return [
    { url: `https://i.ytimg.com/vi/${videoId}/default.jpg`, width: 120, height: 90 },
    { url: `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`, width: 320, height: 180 },
    { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`, width: 480, height: 360 },
  ];
}

/** 1234567 -> "1,234,567" (without Intl, which is slow on a hot path). */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function ago(days: number): string {
  const [amount, unit] =
    days >= 365
      ? [Math.floor(days / 365), 'year']
      : days >= 30
        ? [Math.floor(days / 30), 'month']
        : days >= 7
          ? [Math.floor(days / 7), 'week']
          : [Math.max(days, 1), 'day'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'} ago`;
}

function publishedIso(facts: VideoFacts): string {
  return new Date(CATALOG_NOW - facts.ageDays * DAY_MS).toISOString();
}

/** The facts a list item shows; `channel` overrides the video's author (a channel's own uploads). */
function summary(
  videoId: string,
  seed: number,
  channel?: ChannelFacts,
): { facts: VideoFacts; channel: ChannelFacts } {
  const facts = videoFacts(videoId, seed);
  return { facts, channel: channel ?? facts.author };
}

export function snakeVideoItem(videoId: string, index: number, seed: number, channel?: ChannelFacts) {
  const { facts, channel: owner } = summary(videoId, seed, channel);
  return {
    type: 'video',
    index,
    video_id: videoId,
    title: facts.title,
    channel_id: owner.channelId,
    channel_title: owner.title,
    channel_handle: owner.handle,
    channel_verified: owner.verified,
    length_text: lengthText(facts.lengthSeconds),
    view_count_text: `${groupDigits(facts.viewCount)} views`,
    published_time_text: ago(facts.ageDays),
    has_captions: facts.hasCaptions,
    thumbnails: thumbnails(videoId),
  };
}

export function camelVideoItem(videoId: string, seed: number, channel?: ChannelFacts, index?: number) {
  const { facts, channel: owner } = summary(videoId, seed, channel);
  return {
    type: 'video',
    ...(index === undefined ? {} : { index }),
    videoId,
    title: facts.title,
    channelId: owner.channelId,
    channelTitle: owner.title,
    channelHandle: owner.handle,
    channelVerified: owner.verified,
    lengthText: lengthText(facts.lengthSeconds),
    viewCountText: `${groupDigits(facts.viewCount)} views`,
    publishedTimeText: ago(facts.ageDays),
    hasCaptions: facts.hasCaptions,
    thumbnails: thumbnails(videoId),
  };
}

export function channelItem(channel: ChannelFacts) {
  return {
    type: 'channel',
    channelId: channel.channelId,
    title: channel.title,
    handle: channel.handle,
    subscriberCount: `${groupDigits(channel.subscriberCount)} subscribers`,
    verified: channel.verified,
    rssUrl: `https://www.youtube.com/feeds/videos.xml?channel_id=${channel.channelId}`,
  };
}

/** An entry of channel/latest (an RSS-like record). */
export function latestItem(videoId: string, seed: number) {
  const facts = videoFacts(videoId, seed);
  return {
    videoId,
    title: facts.title,
    published: publishedIso(facts),
    viewCount: String(facts.viewCount),
    description: `${facts.title}\n\nPublished by ${facts.author.title}.`,
    thumbnail: { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`, width: 480, height: 360 },
  };
}

export function channelUrl(channelId: string): string {
  return `https://www.youtube.com/channel/${channelId}`;
}
