/**
 * The seven /api/v2 endpoints: which are paid, how their parameters are checked, and the 200 body (or
 * 404) each returns. Everything is computed from the catalog (its seed, the uploads added so far and
 * its clock) and the parameters; nothing else is stored.
 */
import type { Catalog } from './catalog';
import { channelIdFromHandle } from './channel-ids';
import { channelFacts, channelSize, uploadVideoId } from './channels';
import type { ContinuationCodec } from './continuation';
import type { ChannelRef } from './ids';
import { camelVideoItem, channelItem, channelUrl, latestItem, snakeVideoItem } from './items';
import {
  channelUploadsInfo,
  isMissing,
  pagePositions,
  playlistInfo,
  playlistOwner,
  playlistSize,
  playlistVideoId,
} from './lists';
import { problem } from './problems';
import type { FieldError, Problem } from './problems';
import { hash32, rngFor } from './random';
import type { ChannelPage, PlaylistPage, Query, TranscriptParams, Validated, Validators } from './validation';
import { findTrack, transcriptAsText, transcriptSegments, videoFacts } from './videos';

/** What a 200 records in the ledger besides endpoint, key and time. */
export interface ChargeDetail {
  videoId?: string;
  lang?: string;
  playlist?: string;
  channel?: string;
  /** For a page of a list: how many of its videos earlier pages served (0 for the first page). */
  offset?: number;
}

export type Outcome = { ok: true; body: unknown; charge: ChargeDetail } | { ok: false; problem: Problem };

/** A checked request, ready to be served once credits allow. */
export type Prepared = { ok: true; serve: () => Outcome } | { ok: false; errors: FieldError[] };

export interface Endpoint {
  /** Costs one credit per 200. */
  paid: boolean;
  prepare(query: Query): Prepared;
}

const LATEST_COUNT = 15;

/** The video at a 0-based place of the results of a video search for `query` (lower-cased). */
export function searchVideoId(seed: number, query: string, place: number): string {
  return rngFor(seed, 'search', query, place).idChars(11);
}

const notFound = (detail: string): Outcome => ({ ok: false, problem: problem(404, detail) });

/** The channel ID a reference names, or null when the channel does not exist. */
function resolveChannel(ref: ChannelRef): string | null {
  if (ref.kind === 'handle') return isMissing(ref.handle) ? null : channelIdFromHandle(ref.handle);
  return isMissing(ref.channelId) ? null : ref.channelId;
}

export function createEndpoints(
  catalog: Catalog,
  validators: Validators,
  codec: ContinuationCodec,
): Record<string, Endpoint> {
  const { seed, uploads } = catalog;
  /** Runs `serve` with the checked parameters, or reports the field errors. */
  function endpoint<P>(
    paid: boolean,
    validate: (query: Query) => Validated<P>,
    serve: (params: P) => Outcome,
  ): Endpoint {
    return {
      paid,
      prepare(query) {
        const checked = validate(query);
        return checked.ok ? { ok: true, serve: () => serve(checked.value) } : checked;
      },
    };
  }

  return {
    transcript: endpoint(true, validators.transcript, (params) => transcriptOf(catalog, params)),

    'playlist/videos': endpoint(true, validators.playlistVideos, (page) =>
      playlistPage(catalog, codec, page),
    ),

    'channel/resolve': endpoint(false, validators.channelResolve, ({ input, channel }) => {
      const channelId = resolveChannel(channel);
      if (channelId === null) return notFound('channel not found');
      return { ok: true, body: { channel_id: channelId, resolved_from: input }, charge: {} };
    }),

    'channel/videos': endpoint(true, validators.channelVideos, (page) => channelPage(catalog, codec, page)),

    'channel/latest': endpoint(false, validators.channelLatest, ({ channel }) => {
      const channelId = resolveChannel(channel);
      if (channelId === null) return notFound('channel not found');
      const owner = channelFacts(channelId, seed, uploads);
      const results = Array.from({ length: Math.min(owner.size, LATEST_COUNT) }, (_, i) =>
        latestItem(catalog, uploadVideoId(channelId, i + 1, seed, uploads)),
      );
      return {
        ok: true,
        body: {
          channel: { channelId, title: owner.title, author: owner.title, url: channelUrl(channelId) },
          results,
          result_count: results.length,
        },
        charge: {},
      };
    }),

    search: endpoint(true, validators.search, ({ q, type, limit }) => {
      const query = q.toLowerCase();
      const results = Array.from({ length: limit }, (_, i) =>
        type === 'video'
          ? camelVideoItem(catalog, searchVideoId(seed, query, i))
          : channelItem(
              channelFacts(channelIdFromHandle(rngFor(seed, 'search-channel', query, i).idChars(8)), seed),
            ),
      );
      return { ok: true, body: { results, result_count: results.length }, charge: {} };
    }),

    'channel/search': endpoint(true, validators.channelSearch, ({ channel, q, limit }) => {
      const channelId = resolveChannel(channel);
      if (channelId === null) return notFound('channel not found');
      const owner = channelFacts(channelId, seed, uploads);
      const size = channelSize(channelId, seed, uploads);
      // Consecutive uploads from a position chosen by the query: distinct, and stable for a given q.
      const first = size === 0 ? 0 : hash32(seed, 'channel-search', channelId, q.toLowerCase()) % size;
      const results = Array.from({ length: Math.min(limit, size) }, (_, i) =>
        camelVideoItem(catalog, uploadVideoId(channelId, ((first + i) % size) + 1, seed, uploads), owner),
      );
      return { ok: true, body: { results, result_count: results.length }, charge: { channel: channelId } };
    }),
  };
}

/** A video's transcript in the language asked for, as text or segments, with its metadata when asked. */
function transcriptOf(catalog: Catalog, params: TranscriptParams): Outcome {
  const { seed, uploads } = catalog;
  const facts = videoFacts(params.videoId, seed, uploads);
  if (!facts.hasCaptions) return notFound('no captions');
  const track = findTrack(facts, params.lang);
  if (track === null) return notFound(`no captions in language "${params.lang}"`);
  const segments = transcriptSegments(facts, track, seed);
  const transcript =
    params.format === 'text'
      ? transcriptAsText(segments, params.includeTimestamp)
      : params.includeTimestamp
        ? segments
        : segments.map((segment) => ({ text: segment.text }));
  const metadata = {
    title: facts.title,
    author_name: facts.author.title,
    author_url: `https://www.youtube.com/${facts.author.handle}`,
    thumbnail_url: `https://i.ytimg.com/vi/${facts.videoId}/hqdefault.jpg`,
  };
  return {
    ok: true,
    body: {
      video_id: facts.videoId,
      language: track,
      transcript,
      ...(params.sendMetadata ? { metadata } : {}),
    },
    charge: { videoId: facts.videoId, lang: track },
  };
}

/** A page of a playlist, from `offset`, with the cursor of the next. */
function playlistPage(
  catalog: Catalog,
  codec: ContinuationCodec,
  { playlistId, offset }: PlaylistPage,
): Outcome {
  const { seed, uploads } = catalog;
  if (isMissing(playlistId)) return notFound('playlist not found');
  const size = playlistSize(playlistId, seed, catalog);
  // A channel's uploads playlist shows that channel on every item; others show each video's author.
  const owner = playlistId.startsWith('UU') ? playlistOwner(playlistId, seed, uploads) : undefined;
  const results = pagePositions(size, offset, catalog.pageSize).map((position) =>
    snakeVideoItem(catalog, playlistVideoId(playlistId, position, seed, catalog), position, owner),
  );
  const next = offset + results.length;
  const hasMore = next < size;
  return {
    ok: true,
    body: {
      results,
      result_count: results.length,
      continuation_token: hasMore ? codec.encode({ list: 'playlist', id: playlistId, offset: next }) : null,
      has_more: hasMore,
      playlist_info: playlistInfo(playlistId, seed, catalog),
    },
    charge: { playlist: playlistId, offset },
  };
}

/** A page of a channel's uploads, from `offset`, with the cursor of the next. */
function channelPage(catalog: Catalog, codec: ContinuationCodec, { channel, offset }: ChannelPage): Outcome {
  const { seed, uploads } = catalog;
  const channelId = resolveChannel(channel);
  if (channelId === null) return notFound('channel not found');
  const owner = channelFacts(channelId, seed, uploads);
  const results = pagePositions(owner.size, offset, catalog.pageSize).map((position) =>
    camelVideoItem(catalog, uploadVideoId(channelId, position, seed, uploads), owner, position),
  );
  const next = offset + results.length;
  const hasMore = next < owner.size;
  return {
    ok: true,
    body: {
      results,
      result_count: results.length,
      playlist_info: channelUploadsInfo(channelId, seed, uploads),
      continuation_token: hasMore ? codec.encode({ list: 'channel', id: channelId, offset: next }) : null,
      has_more: hasMore,
    },
    charge: { channel: channelId, offset },
  };
}
