import type { JobDefaults, JobDraft } from '../../shared/contract';
import { clockTime, videoUrlAt } from '../../shared/video-links';
import { ORIGINAL_TRACK } from '../../shared/vocabulary';
import type { SearchResultRow } from '../export';
import type { Database } from '../store';
import { transcriptPurchase, type TranscriptPurchase } from '../store/queries/library';
import { libraryMatches, matchingTranscriptIds, type LibrarySearch } from './library';
import { AppError } from './errors';

/** How far writing a search's hits has come: `done` of `total` hits. */
export interface RowsProgress {
  done: number;
  total: number;
}

/** Transcripts read between two turns of the event loop while the hits are written. */
const TRANSCRIPTS_PER_TURN = 32;

/**
 * Every hit of the search (the first `limit` when it is given), best video first and each video's
 * hits in time order, as CSV rows. A frequent word's hits are in tens of thousands of transcripts,
 * each read back: `onProgress` hears how far it has come every TRANSCRIPTS_PER_TURN transcripts, and
 * the event loop then gets a turn, in which `signal` may be aborted: the rows stop there with its
 * reason, before anything more is read.
 */
export async function* searchResultRows(
  db: Database,
  search: LibrarySearch,
  options: { limit: number | null; onProgress?: (progress: RowsProgress) => void; signal?: AbortSignal },
): AsyncGenerator<SearchResultRow> {
  const { hits, matches } = libraryMatches(db, search);
  const total = options.limit === null ? hits : Math.min(hits, options.limit);
  let done = 0;
  let read = 0;
  options.onProgress?.({ done, total });
  for (const { transcript, hits: found } of matches) {
    for (const hit of found) {
      if (done >= total) return;
      yield {
        videoId: transcript.videoId,
        transcriptId: transcript.id,
        language: transcript.language,
        title: transcript.title,
        time: hit.start === null ? '' : clockTime(hit.start),
        startSeconds: hit.start,
        url: videoUrlAt(transcript.videoId, hit.start),
        snippet: hit.text,
      };
      done++;
    }
    if (++read % TRANSCRIPTS_PER_TURN === 0) {
      options.onProgress?.({ done, total });
      await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
    }
  }
  options.onProgress?.({ done, total });
}

const NAME_CHARS = 200;

/**
 * The draft of a job holding the videos the search matches, asked for exactly as their stored
 * transcripts were bought, so that its run is answered from the cache. A job asks every video the
 * same way: when the matches were bought in several ways (other languages, with or without times),
 * the job takes the way most videos have a matching transcript in, and holds every video that has
 * one (`videos` counts them; `leftOut` the matching videos it leaves out, for the faces to say so). Its budget is 0: should anything not be cached
 * after all, the run stops instead of spending. Only the index and how each transcript was bought are
 * read, never a body: a word in most videos makes its job as quickly as a rare one.
 */
export function libraryJobDraft(
  db: Database,
  search: LibrarySearch,
  defaults: JobDefaults,
): { draft: JobDraft; videos: number; leftOut: number } {
  /** Each way of buying, with the videos a matching transcript was bought that way for. */
  const ways = new Map<string, { purchase: TranscriptPurchase; videoIds: Set<string> }>();
  for (const transcriptId of matchingTranscriptIds(db, search)) {
    const purchase = transcriptPurchase(db, transcriptId);
    if (purchase === undefined) continue;
    const key = keyOf(purchase);
    const way = ways.get(key) ?? { purchase, videoIds: new Set<string>() };
    way.videoIds.add(purchase.videoId);
    ways.set(key, way);
  }
  const chosen = [...ways.values()].reduce<
    { purchase: TranscriptPurchase; videoIds: Set<string> } | undefined
  >((best, way) => (best === undefined || way.videoIds.size > best.videoIds.size ? way : best), undefined);
  if (chosen === undefined)
    throw new AppError('invalid_input', 'No stored transcript matches this search: no job was made.');
  const { purchase, videoIds } = chosen;
  const matching = new Set([...ways.values()].flatMap((way) => [...way.videoIds]));
  const name = `Search: ${search.query.trim()}`;
  return {
    draft: {
      sources: [...videoIds].map((videoId, index) => ({ where: `video ${index + 1}`, text: videoId })),
      languages: purchase.requestedLang === '' ? ORIGINAL_TRACK : purchase.requestedLang,
      includeTimestamp: purchase.includeTimestamp,
      sendMetadata: purchase.sendMetadata,
      maxVideos: null,
      budget: 0,
      concurrency: defaults.concurrency,
      formats: defaults.formats,
      name: name.length <= NAME_CHARS ? name : `${name.slice(0, NAME_CHARS - 1)}…`,
    },
    videos: videoIds.size,
    leftOut: matching.size - videoIds.size,
  };
}

function keyOf(purchase: TranscriptPurchase): string {
  return JSON.stringify([purchase.requestedLang, purchase.includeTimestamp, purchase.sendMetadata]);
}
