import { createStore } from 'zustand';
import type { ScriptoriumApi, VideoFilter, VideoRow } from '../../../shared/contract';
import { describeError } from '../lib/errors';
import { pagesCovering, withPage, type Pages } from '../lib/page-cache';

/** Rows asked of the database at a time. */
export const PAGE_SIZE = 100;
/** Pages kept in memory: the rows around the visible window, never the whole job. */
export const MAX_PAGES = 8;

export interface VideoPagesState {
  jobId: number | null;
  filter: VideoFilter;
  search: string;
  /** Videos matching the filter and search; null until the first page answers. */
  total: number | null;
  pages: Pages<VideoRow>;
  error: string | null;

  /** Shows another job's videos (or the same job afresh), all of them. */
  open(jobId: number): void;
  setFilter(filter: VideoFilter): void;
  setSearch(search: string): void;
  /** The rows on screen are `first` to `last`: fetches the pages they need that are not held. */
  showRows(first: number, last: number): void;
  /** The job's videos changed: fetches the visible pages again and forgets the others. */
  refresh(jobId: number): void;
}

/**
 * The job detail's table: pages of rows fetched with listVideos around the visible window, at most
 * MAX_PAGES of them held. Each query (job, filter, search) has a generation; an answer to an older
 * one is dropped.
 */
export function createVideoPagesStore(api: ScriptoriumApi) {
  let generation = 0;
  /** Pages asked for in the current generation and not answered yet. */
  let inFlight = new Set<number>();
  /** Pages in flight when the videos changed: asked again once they answer. */
  let askAgain = new Set<number>();
  /** Pages the screen shows now; never evicted. */
  let visible = new Set<number>();

  return createStore<VideoPagesState>()((set, get) => {
    const fetchPage = async (page: number): Promise<void> => {
      const { jobId, filter, search } = get();
      if (jobId === null || inFlight.has(page)) return;
      const asked = generation;
      inFlight.add(page);
      try {
        const answer = await api.listVideos({
          jobId,
          offset: page * PAGE_SIZE,
          limit: PAGE_SIZE,
          status: filter,
          search,
        });
        if (asked !== generation) return;
        set((state) => ({
          total: answer.total,
          pages: withPage(state.pages, page, answer.rows, MAX_PAGES, visible),
          error: null,
        }));
      } catch (error) {
        if (asked === generation) set({ error: describeError(error).message });
      } finally {
        if (asked === generation) {
          inFlight.delete(page);
          if (askAgain.delete(page)) void fetchPage(page);
        }
      }
    };

    /** A new query: everything held or asked belongs to the old one. */
    const restart = (change: Partial<Pick<VideoPagesState, 'jobId' | 'filter' | 'search'>>) => {
      generation += 1;
      inFlight = new Set();
      askAgain = new Set();
      visible = new Set([0]);
      set({ ...change, total: null, pages: new Map(), error: null });
      void fetchPage(0);
    };

    return {
      jobId: null,
      filter: 'all',
      search: '',
      total: null,
      pages: new Map(),
      error: null,

      open(jobId) {
        restart({ jobId, filter: 'all', search: '' });
      },
      setFilter(filter) {
        if (filter !== get().filter) restart({ filter });
      },
      setSearch(search) {
        if (search !== get().search) restart({ search });
      },
      showRows(first, last) {
        const needed = pagesCovering(first, last, PAGE_SIZE);
        visible = new Set(needed);
        const { pages } = get();
        for (const page of needed) if (!pages.has(page)) void fetchPage(page);
      },
      refresh(jobId) {
        if (jobId !== get().jobId) return;
        // The visible pages are fetched again (those on screen stay until then); the others would
        // be stale, so they go. An empty table asks for its first page, to learn the new total.
        set((state) => ({
          pages: new Map([...state.pages].filter(([page]) => visible.has(page))),
        }));
        const wanted = visible.size === 0 ? [0] : [...visible];
        for (const page of wanted) {
          if (inFlight.has(page)) askAgain.add(page);
          else void fetchPage(page);
        }
      },
    };
  });
}
