/**
 * The ground truth for tests: what a catalog holds and lists, computed as the endpoints compute it, with
 * no HTTP and nothing charged. The module functions of index.ts describe the catalog as it starts;
 * a running simulator's admin describes it with the uploads added since.
 */
import type { Catalog } from './catalog';
import { channelIdFromHandle } from './channel-ids';
import { channelSize, uploadVideoId } from './channels';
import { searchVideoId } from './endpoints';
import { parseChannelInput, parsePlaylistId } from './ids';
import { isMissing, playlistSize, playlistVideoId } from './lists';
import { findTrack, transcriptSegments, videoFacts, type Segment } from './videos';

export interface VideoDescription {
  exists: true;
  title: string;
  languages: string[];
  original: string;
  hasCaptions: boolean;
  segments: number;
  /** What the listings say: its length in seconds. */
  lengthSeconds: number;
  /** When it was published, as an ISO time (what channel/latest gives; listings word its age). */
  published: string;
  /** The channel that published it (transcript metadata's author). */
  authorChannelId: string;
}

export interface ListDescription {
  exists: boolean;
  size: number;
  /** Its videos in listed order (a channel's newest first). */
  videoIds(): string[];
}

export interface ChannelDescription extends ListDescription {
  channelId: string | null;
}

/** The transcript transcript/ answers for a video and language: its track and its segments. */
export interface TranscriptDescription {
  /** The caption track's code, as the answer's `language` gives it. */
  language: string;
  /** Text, start and duration (seconds), as sent with timestamps. */
  segments: Segment[];
}

export interface Describers {
  describeVideo(videoId: string): VideoDescription;
  /**
   * The transcript of a video in `lang` (the original track when absent), as transcript/ sends it;
   * null when that request is a 404 (no captions, or none in that language).
   */
  describeTranscript(videoId: string, lang?: string): TranscriptDescription | null;
  /** A playlist ID, as playlist/videos takes it. */
  describePlaylist(playlistId: string): ListDescription;
  /** Any input channel/videos accepts: an @handle, a UC id or a channel URL. */
  describeChannel(channel: string): ChannelDescription;
  /** The videos a video search for `q` answers with `limit` results, in order. */
  describeSearch(q: string, limit: number): string[];
}

const NO_LIST = { exists: false, size: 0, videoIds: () => [] };

/** The describers of a catalog: with no uploads added nor playlist edited, of the catalog as it starts. */
export function describers(catalog: Pick<Catalog, 'seed' | 'uploads'> & Partial<Catalog>): Describers {
  const { seed, uploads } = catalog;
  return {
    describeVideo(videoId) {
      const facts = videoFacts(videoId, seed, uploads);
      return {
        exists: true,
        title: facts.title,
        languages: facts.languages,
        original: facts.original,
        hasCaptions: facts.hasCaptions,
        segments: facts.segments,
        lengthSeconds: facts.lengthSeconds,
        published: new Date(facts.publishedAt).toISOString(),
        authorChannelId: facts.author.channelId,
      };
    },
    describeTranscript(videoId, lang) {
      const facts = videoFacts(videoId, seed, uploads);
      const track = facts.hasCaptions ? findTrack(facts, lang) : null;
      return track === null ? null : { language: track, segments: transcriptSegments(facts, track, seed) };
    },
    describePlaylist(playlistId) {
      const id = parsePlaylistId(playlistId);
      if (id === null || isMissing(id)) return NO_LIST;
      const size = playlistSize(id, seed, catalog);
      return {
        exists: true,
        size,
        videoIds: () => Array.from({ length: size }, (_, i) => playlistVideoId(id, i + 1, seed, catalog)),
      };
    },
    describeChannel(channel) {
      const ref = parseChannelInput(channel);
      if (ref === null || isMissing(ref.kind === 'id' ? ref.channelId : ref.handle)) {
        return { ...NO_LIST, channelId: null };
      }
      const channelId = ref.kind === 'id' ? ref.channelId : channelIdFromHandle(ref.handle);
      const size = channelSize(channelId, seed, uploads);
      return {
        exists: true,
        channelId,
        size,
        videoIds: () =>
          Array.from({ length: size }, (_, i) => uploadVideoId(channelId, i + 1, seed, uploads)),
      };
    },
    describeSearch(q, limit) {
      const query = q.toLowerCase();
      return Array.from({ length: limit }, (_, place) => searchVideoId(seed, query, place));
    },
  };
}
