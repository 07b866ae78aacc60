/**
 * The simulator: a faithful local Transcript Service (docs/service.md) for the demo,
 * the tests and the benchmarks. It shares no code with src/core/api, so it stays an independent check
 * of the client.
 */
import { channelIdFromHandle } from './channel-ids';
import {
  describers,
  type ChannelDescription,
  type Describers,
  type ListDescription,
  type TranscriptDescription,
  type VideoDescription,
} from './describe';
import type { PlaylistEdit } from './playlist-edits';
import { startServer } from './server';
import { UploadBook } from './uploads';

export type {
  ChannelDescription,
  Describers,
  ListDescription,
  PlaylistEdit,
  TranscriptDescription,
  VideoDescription,
};

export const DEMO_KEY = 'sk_demo_scriptorium';

export interface SimulatorOptions {
  /** 0 (default) picks a free port. Always listens on 127.0.0.1. */
  port?: number;
  /** Accepted bearer keys. Default [DEMO_KEY]. */
  keys?: string[];
  /** Starting credits (the free grant). Default 100. */
  credits?: number;
  /** Requests allowed per window per key; null/undefined = unlimited (default). */
  rateLimit?: { limit: number; windowMs: number } | null;
  /** Which header names carry the rate limit: 'standard' = RateLimit-Limit/-Remaining/-Reset
   *  (default), 'x' = X-RateLimit-Limit/-Remaining/-Reset. */
  rateLimitHeaders?: 'standard' | 'x';
  /** Added delay per request in ms. Default 0. */
  latencyMs?: number;
  /** Seed for all generated data. Default 1. */
  seed?: number;
  /**
   * Videos per page of playlist/videos and channel/videos. Default 100 (the notes' samples); a test
   * gives a small one to walk lists of many pages without thousands of videos.
   */
  pageSize?: number;
  /**
   * The simulator's clock, in epoch ms (default Date.now): listings word a video's age against it
   * ("3 hours ago"), uploads are dated by it, and rate-limit windows and the ledger follow it. A test
   * gives its own to move time; the catalog's dates lie before 2025-06-01, so a clock before that
   * would make them future.
   */
  now?: () => number;
}

export interface Charge {
  seq: number;
  endpoint: string;
  /** Which accepted key paid, as its index ('key#0'), never the key itself. */
  key: string;
  videoId?: string;
  lang?: string;
  playlist?: string;
  channel?: string;
  /** For a page of a list: how many of its videos earlier pages served (0 for the first page). */
  offset?: number;
  at: number;
}

/** An API request as it arrives, before it is checked or answered (admin.onRequest). */
export interface ArrivingRequest {
  seq: number;
  /** The endpoint's name ('transcript', 'playlist/videos'…), or the path when it names none. */
  endpoint: string;
  query: Record<string, string>;
}

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** The status answered; 0 for a request held open by a 'hang' fault. */
  status: number;
  at: number;
  charged: boolean;
}

export interface FaultRule {
  /** Which requests it hits; all given fields must match. */
  match?: { endpoint?: string; videoId?: string; lang?: string };
  /** 'status' answers `status` with a problem+json body; 'malformed' answers 200 with invalid JSON;
   *  'wrong-shape' answers 200 with valid JSON of the wrong shape; 'truncated' sends a 200 with a
   *  Content-Length larger than the bytes sent and then destroys the socket; 'delay' waits delayMs then
   *  serves normally; 'hang' never answers (until close). */
  kind: 'status' | 'malformed' | 'wrong-shape' | 'truncated' | 'delay' | 'hang';
  status?: number;
  /** Retry-After header value to send with a 'status' fault, verbatim (seconds or an HTTP date). */
  retryAfter?: string;
  delayMs?: number;
  /** Fire this many times then disappear (default: forever). */
  times?: number;
  /** Fire with this probability (0..1) using the seeded PRNG (default 1). */
  rate?: number;
}

/**
 * What a test drives a running simulator with; its describers (describeVideo, describePlaylist,
 * describeChannel, describeSearch) tell what it serves now, the uploads added since it started
 * included, without HTTP or charge.
 */
export interface SimulatorAdmin extends Describers {
  ledger(): Charge[];
  chargesFor(videoId: string): number;
  requests(): LoggedRequest[];
  /** Counters by endpoint and status, unbounded history not kept. */
  stats(): { requests: number; charged: number; byStatus: Record<string, number> };
  credits(): number;
  topUp(credits: number): void;
  /** Sets the credits left to `credits` (0 or more), the plan as it is: 0 makes every paid request a 402. */
  setCredits(credits: number): void;
  /** Sets the 402 code used when credits are exhausted or subscription paused. */
  setPlan(state: 'grant' | 'paid' | 'paused'): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  /**
   * Holds every answer, whatever its endpoint, from now until the returned function is called; then
   * they all leave. Requests are still received, checked and charged as they arrive. Lets a test see
   * a job running before it can finish, on a fast machine as on a slow one.
   */
  holdAnswers(): () => void;
  /**
   * The channel (@handle or UC id) uploads `count` new videos: published minutes or hours before now
   * (the simulator's clock), they lead its channel/videos, channel/latest and uploads playlist (UU…)
   * from now on, under the channel's own name.
   */
  addUploads(channel: string, count: number): void;
  /**
   * The playlist's owner edits it: videos appended at its end, one removed, or one moved, from now on
   * in its pages, its size and playlist_info. An uploads playlist (UU…) follows its channel and cannot
   * be edited, nor can a playlist that does not exist; a position outside the list is refused
   * (RangeError) and nothing changes.
   */
  editPlaylist(playlistId: string, edit: PlaylistEdit): void;
  /**
   * Calls `listener` with each API request as it arrives, before anything else happens to it (so a
   * test can act at the k-th request: hold the answers, stop the client); returns the unsubscriber.
   */
  onRequest(listener: (request: ArrivingRequest) => void): () => void;
  /** Credits back to the starting value, plan 'grant', ledger/log/stats/faults/rate windows, added uploads and playlist edits cleared. */
  reset(): void;
}

export interface RunningSimulator {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The first accepted key. */
  key: string;
  admin: SimulatorAdmin;
  close(): Promise<void>;
}

/** Starts a simulator on 127.0.0.1; resolves once it listens. */
export function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startServer({ ...options, keys: options.keys ?? [DEMO_KEY] });
}

/** The ground truth for tests: what the catalog holds for a video, as it starts (no HTTP). */
export function describeVideo(videoId: string, seed = 1): VideoDescription {
  return describers({ seed, uploads: new UploadBook(seed) }).describeVideo(videoId);
}

/**
 * The ground truth for tests: a playlist's existence, size and videos in order, as the catalog starts
 * (no HTTP). `PLsimTourList_n120` has 120 videos. Give the IDs users would see, PL + 16 or 32
 * characters: the app reads a bare 11-character ID as a video, even one starting with PL.
 */
export function describePlaylist(playlistId: string, seed = 1): ListDescription {
  return describers({ seed, uploads: new UploadBook(seed) }).describePlaylist(playlistId);
}

/**
 * The ground truth for tests: a channel's existence, ID, upload count and uploads newest first, as the
 * catalog starts (no HTTP), for any input channel/videos accepts: `@demo_channel_n40` (40 uploads), a
 * UC id or a URL.
 */
export function describeChannel(channel: string, seed = 1): ChannelDescription {
  return describers({ seed, uploads: new UploadBook(seed) }).describeChannel(channel);
}

/** The channel ID that channel/resolve answers for an @handle (with or without the '@'). */
export function channelIdForHandle(handle: string): string {
  return channelIdFromHandle(handle);
}
