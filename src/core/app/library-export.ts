import type { JobDefaults, JobDraft } from '../../shared/contract';
import { clockTime, videoUrlAt } from '../../shared/video-links';
import type { SearchResultRow } from '../export';
import type { Database } from '../store';
import { libraryMatches, type LibrarySearch } from './library';
import { AppError } from './errors';

/** Every hit of the search, best video first and each video's hits in time order, as CSV rows. */
export function searchResultRows(db: Database, search: LibrarySearch): SearchResultRow[] {
  const rows: SearchResultRow[] = [];
  for (const { transcript, hits } of libraryMatches(db, search)) {
    for (const hit of hits) {
      rows.push({
        videoId: transcript.videoId,
        title: transcript.title,
        time: hit.start === null ? '' : clockTime(hit.start),
        url: videoUrlAt(transcript.videoId, hit.start),
        snippet: hit.text,
      });
    }
  }
  return rows;
}

/** What a stored transcript was bought as: the key a job must ask with to find it in the cache. */
interface Purchase {
  requestedLang: string;
  includeTimestamp: boolean;
  sendMetadata: boolean;
}

const NAME_CHARS = 200;

/**
 * The draft of a job holding the videos the search matches, asked for exactly as their stored
 * transcripts were bought, so that its run is answered from the cache. A job asks every video the
 * same way: when the matches were bought in several ways (other languages, with or without times),
 * the job takes the way most of them were, and the rest are left out (`videos` counts those in).
 * Its budget is 0: should anything not be cached after all, the run stops instead of spending.
 */
export function libraryJobDraft(
  db: Database,
  search: LibrarySearch,
  defaults: JobDefaults,
): { draft: JobDraft; videos: number } {
  const best = new Map<string, Purchase>();
  for (const { transcript } of libraryMatches(db, search)) {
    if (!best.has(transcript.videoId)) best.set(transcript.videoId, transcript);
  }
  if (best.size === 0)
    throw new AppError('invalid_input', 'No stored transcript matches this search: no job was made.');
  const counts = new Map<string, number>();
  for (const purchase of best.values()) counts.set(keyOf(purchase), (counts.get(keyOf(purchase)) ?? 0) + 1);
  const chosen = [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const videoIds = [...best.entries()].filter(([, purchase]) => keyOf(purchase) === chosen).map(([id]) => id);
  const way = [...best.values()].find((purchase) => keyOf(purchase) === chosen) as Purchase;
  const name = `Search: ${search.query.trim()}`;
  return {
    draft: {
      sources: videoIds.map((videoId, index) => ({ where: `video ${index + 1}`, text: videoId })),
      languages: way.requestedLang === '' ? 'orig' : way.requestedLang,
      includeTimestamp: way.includeTimestamp,
      sendMetadata: way.sendMetadata,
      maxVideos: null,
      budget: 0,
      concurrency: defaults.concurrency,
      formats: defaults.formats,
      name: name.length <= NAME_CHARS ? name : `${name.slice(0, NAME_CHARS - 1)}…`,
    },
    videos: videoIds.length,
  };
}

function keyOf(purchase: Purchase): string {
  return JSON.stringify([purchase.requestedLang, purchase.includeTimestamp, purchase.sendMetadata]);
}
