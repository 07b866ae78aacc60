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
import { videoFacts } from './videos';

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

export interface Describers {
  describeVideo(videoId: string): VideoDescription;
  /** A playlist ID, as playlist/videos takes it. */
  describePlaylist(playlistId: string): ListDescription;
  /** Any input channel/videos accepts: an @handle, a UC id or a channel URL. */
  describeChannel(channel: string): ChannelDescription;
  /** The videos a video search for `q` answers with `limit` results, in order. */
  describeSearch(q: string, limit: number): string[];
}

const NO_LIST = { exists: false, size: 0, videoIds: () => [] };

/** The describers of a catalog: with no uploads added, of the catalog as it starts. */
export function describers({ seed, uploads }: Pick<Catalog, 'seed' | 'uploads'>): Describers {
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
    describePlaylist(playlistId) {
      const id = parsePlaylistId(playlistId);
      if (id === null || isMissing(id)) return NO_LIST;
      const size = playlistSize(id, seed, uploads);
      return {
        exists: true,
        size,
        videoIds: () => Array.from({ length: size }, (_, i) => playlistVideoId(id, i + 1, seed, uploads)),
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
