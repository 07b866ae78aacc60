/**
 * Video and channel items as the endpoints send them: snake_case for playlist/videos (docs/service.md),
 * camelCase for search, channel/search, channel/videos and channel/latest (docs/service.md).
 */
import type { Catalog } from './catalog';
import type { ChannelFacts } from './channels';
import { lengthText, videoFacts } from './videos';
import type { VideoFacts } from './videos';

interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The units of relative dates, largest first: a year is 365 days, a month 30, as the service counts. */
const AGE_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['week', 7 * DAY_MS],
  ['day', DAY_MS],
  ['hour', HOUR_MS],
  ['minute', MINUTE_MS],
  ['second', SECOND_MS],
];

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

/** "3 hours ago", "2 years ago": the age in its largest whole unit, rounded down. */
function ago(ageMs: number): string {
  const age = Math.max(0, ageMs);
  const [unit, unitMs] = AGE_UNITS.find(([, ms]) => age >= ms) ?? ['second', SECOND_MS];
  const amount = Math.floor(age / unitMs);
  return `${amount} ${unit}${amount === 1 ? '' : 's'} ago`;
}

/** The facts a list item shows; `channel` overrides the video's author (a channel's own uploads). */
function summary(
  catalog: Catalog,
  videoId: string,
  channel?: ChannelFacts,
): { facts: VideoFacts; channel: ChannelFacts; published: string } {
  const facts = videoFacts(videoId, catalog.seed, catalog.uploads);
  return { facts, channel: channel ?? facts.author, published: ago(catalog.now() - facts.publishedAt) };
}

export function snakeVideoItem(catalog: Catalog, videoId: string, index: number, channel?: ChannelFacts) {
  const { facts, channel: owner, published } = summary(catalog, videoId, channel);
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
    published_time_text: published,
    has_captions: facts.hasCaptions,
    thumbnails: thumbnails(videoId),
  };
}

export function camelVideoItem(catalog: Catalog, videoId: string, channel?: ChannelFacts, index?: number) {
  const { facts, channel: owner, published } = summary(catalog, videoId, channel);
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
    publishedTimeText: published,
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

/** An entry of channel/latest (an RSS-like record): its date is exact, where listings word an age. */
export function latestItem(catalog: Catalog, videoId: string) {
  const facts = videoFacts(videoId, catalog.seed, catalog.uploads);
  return {
    videoId,
    title: facts.title,
    published: new Date(facts.publishedAt).toISOString(),
    viewCount: String(facts.viewCount),
    description: `${facts.title}\n\nPublished by ${facts.author.title}.`,
    thumbnail: { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`, width: 480, height: 360 },
  };
}

export function channelUrl(channelId: string): string {
  return `https://www.youtube.com/channel/${channelId}`;
}
