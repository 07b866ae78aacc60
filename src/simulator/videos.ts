/** What the catalog says about a video and its caption tracks, derived from (seed, video ID) alone. */
import { channelFacts } from './channels';
import type { ChannelFacts } from './channels';
import { rngFor, unitHash } from './random';
import { captionWriter, titleText } from './text';
import type { UploadBook } from './uploads';

const ORIGINAL_LANGUAGES = ['en', 'es', 'de', 'fr', 'ja', 'pt'] as const;
/** Tracks a video may carry besides its original, including region-suffixed codes. */
const OTHER_LANGUAGES = [
  'en',
  'es',
  'de',
  'fr',
  'ja',
  'pt',
  'it',
  'ko',
  'pt-BR',
  'es-419',
  'zh-Hans',
] as const;
const NO_CAPTIONS_SHARE = 0.05;
const LONG_VIDEO_SHARE = 0.1;
const ZERO_LENGTH_SHARE = 0.04;
const INTEGER_TIME_SHARE = 0.15;
/** Videos get their authors from a small pool of channels, as a real catalog would. */
const AUTHOR_POOL_SIZE = 400;

export interface VideoFacts {
  videoId: string;
  title: string;
  hasCaptions: boolean;
  /** The original track; '' when the video has no captions. */
  original: string;
  /** Caption tracks, original first; empty when the video has no captions. */
  languages: string[];
  /** Segments per track (0 without captions). */
  segments: number;
  lengthSeconds: number;
  /** The channel that published it: its channel's own for an added upload, else one of a pool. */
  author: ChannelFacts;
  viewCount: number;
  /** When it was published (epoch ms): up to 4000 days before CATALOG_NOW, or when it was uploaded. */
  publishedAt: number;
}

export interface Segment {
  text: string;
  start: number;
  duration: number;
}

/**
 * The day the generated catalog ends: its videos were published before it, on dates that never depend
 * on the clock. Listings word their age against the simulator's clock (items.ts); uploads added
 * while it runs come after.
 */
export const CATALOG_NOW = Date.UTC(2025, 5, 1);
const DAY_MS = 86_400_000;

/** Authors by `${seed}:${number}`; at most AUTHOR_POOL_SIZE entries per seed, so memory stays bounded. */
const authorCache = new Map<string, ChannelFacts>();

function poolAuthor(seed: number, number: number): ChannelFacts {
  const key = `${seed}:${number}`;
  let author = authorCache.get(key);
  if (!author) {
    author = channelFacts(`UC${rngFor(seed, 'author', number).idChars(22)}`, seed);
    authorCache.set(key, author);
  }
  return author;
}

/**
 * What the catalog says of a video; with `uploads`, an upload added while the simulator runs has its
 * channel as author and its upload time as publication date.
 */
export function videoFacts(videoId: string, seed: number, uploads?: UploadBook): VideoFacts {
  const rng = rngFor(seed, 'video', videoId);
  const hasCaptions = !/^nocap/i.test(videoId) && unitHash(seed, 'captions', videoId) >= NO_CAPTIONS_SHARE;
  const original = rng.pick(ORIGINAL_LANGUAGES);
  const languages: string[] = [original];
  const extraTracks = rng.int(1, 3);
  while (languages.length < 1 + extraTracks) {
    const lang = rng.pick(OTHER_LANGUAGES);
    if (!languages.includes(lang)) languages.push(lang);
  }
  const long = rng.chance(LONG_VIDEO_SHARE);
  // Long videos start their last segment after the one-hour mark whatever the segment count.
  const lengthSeconds = long ? rng.int(4600, 7200) : rng.int(45, 2400);
  const segments = rng.int(5, 80);
  const title = titleText(rng, original);
  const poolAuthorNumber = rng.int(1, AUTHOR_POOL_SIZE);
  const viewCount = rng.int(0, 50_000_000);
  const ageDays = rng.int(0, 4000);
  const added = uploads?.find(videoId);
  return {
    videoId,
    title,
    hasCaptions,
    original: hasCaptions ? original : '',
    languages: hasCaptions ? languages : [],
    segments: hasCaptions ? segments : 0,
    lengthSeconds,
    author: added ? channelFacts(added.channelId, seed, uploads) : poolAuthor(seed, poolAuthorNumber),
    viewCount,
    publishedAt: added?.publishedAt ?? CATALOG_NOW - ageDays * DAY_MS,
  };
}

/** The track matching `requested` case-insensitively (the original when absent), else null. */
export function findTrack(facts: VideoFacts, requested: string | undefined): string | null {
  if (requested === undefined) return facts.original || null;
  const wanted = requested.toLowerCase();
  return facts.languages.find((lang) => lang.toLowerCase() === wanted) ?? null;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * The segments of one track. Timing is shared by all tracks of a video (it comes from the video),
 * text differs per track. Times are seconds: mostly two decimals, some whole; captions may overlap
 * and a few last zero seconds.
 */
export function transcriptSegments(facts: VideoFacts, lang: string, seed: number): Segment[] {
  const timing = rngFor(seed, 'timing', facts.videoId);
  const words = rngFor(seed, 'words', facts.videoId, lang);
  const caption = captionWriter(lang);
  const step = facts.lengthSeconds / facts.segments;
  const segments: Segment[] = [];
  for (let i = 0; i < facts.segments; i++) {
    const whole = timing.chance(INTEGER_TIME_SHARE);
    const start = i * step + timing.next() * 0.3 * step;
    // Up to 1.4 steps long, so a caption often runs into the next one.
    const duration = timing.chance(ZERO_LENGTH_SHARE) ? 0 : step * (0.5 + timing.next() * 0.9);
    segments.push({
      text: caption(words),
      start: whole ? Math.round(start) : round2(start),
      duration: whole ? Math.round(duration) : round2(duration),
    });
  }
  return segments;
}

/** "[HH:MM:SS] text" lines, the format=text rendering (timestamps only when asked for). */
export function transcriptAsText(segments: readonly Segment[], withTimestamps: boolean): string {
  return segments
    .map((segment) => (withTimestamps ? `[${clock(segment.start)}] ${segment.text}` : segment.text))
    .join('\n');
}

function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

/** "12:05" or "1:02:03", as list items show a video's length. */
export function lengthText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
