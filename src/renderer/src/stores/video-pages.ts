import { createStore } from 'zustand';
import type { ScriptoriumApi, VideoFilter, VideoRow } from '../../../shared/contract';
import { describeError } from '../lib/errors';
import { pagesCovering, withPage, type Pages } from '../lib/page-cache';

/** Rows asked of the database at a time. */
export const PAGE_SIZE = 100;
/** Pages kept in memory: the rows around the visible window, never the whole job. */
export const MAX_PAGES = 8;
/**
 * Pages asked at once: enough for the two pages a screenful can span. More would queue behind each
 * other while the rows they are for scroll away; a fast scroll through 100,000 rows asked for every
 * page it passed, and the rows on screen came seconds after it stopped.
 */
export const MAX_IN_FLIGHT = 2;

export interface VideoPagesState {
  jobId: number | null;
  filter: VideoFilter;
  search: string;
  /** The index of the source whose videos are shown (in the job's sources); null: every source. */
  source: number | null;
  /** Videos matching the filter and search; null until the first page answers. */
  total: number | null;
  pages: Pages<VideoRow>;
  error: string | null;

  /** Shows another job's videos (or the same job afresh), all of them. */
  open(jobId: number): void;
  setFilter(filter: VideoFilter): void;
  setSearch(search: string): void;
  setSource(source: number | null): void;
  /** The rows on screen are `first` to `last`: fetches the pages they need that are not held. */
  showRows(first: number, last: number): void;
  /** The job's videos changed: fetches the visible pages again and forgets the others. */
  refresh(jobId: number): void;
}

/**
 * The job detail's table: pages of rows fetched with listVideos around the visible window, at most
 * MAX_PAGES of them held and MAX_IN_FLIGHT asked at once, always for pages on screen when asked.
 * Each query (job, filter, search, source) has a generation; an answer to an older one is dropped.
 */
export function createVideoPagesStore(api: ScriptoriumApi) {
  let generation = 0;
  /** Pages asked for in the current generation and not answered yet. */
  let inFlight = new Set<number>();
  /** Pages in flight when the videos changed: asked again once they answer. */
  let askAgain = new Set<number>();
  /** Pages the screen shows now; never evicted. */
  let visible = new Set<number>();
  /** Visible pages held but out of date: the videos changed since they were fetched. */
  let stale = new Set<number>();

  return createStore<VideoPagesState>()((set, get) => {
    const fetchPage = async (page: number): Promise<void> => {
      const { jobId, filter, search, source } = get();
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
          source,
        });
        if (asked !== generation) return;
        stale.delete(page);
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
          if (askAgain.delete(page)) stale.add(page);
          // After a failure, the next scroll or change of the videos asks again, not a loop here.
          if (get().error === null) askForVisible();
        }
      }
    };

    /** Asks for the visible pages missing or out of date, while fewer than MAX_IN_FLIGHT are asked. */
    const askForVisible = (): void => {
      const { pages } = get();
      for (const page of visible) {
        if (inFlight.size >= MAX_IN_FLIGHT) return;
        if (!inFlight.has(page) && (!pages.has(page) || stale.has(page))) void fetchPage(page);
      }
    };

    /** A new query: everything held or asked belongs to the old one. */
    const restart = (change: Partial<Pick<VideoPagesState, 'jobId' | 'filter' | 'search' | 'source'>>) => {
      generation += 1;
      inFlight = new Set();
      askAgain = new Set();
      visible = new Set([0]);
      stale = new Set();
      set({ ...change, total: null, pages: new Map(), error: null });
      void fetchPage(0);
    };

    return {
      jobId: null,
      filter: 'all',
      search: '',
      source: null,
      total: null,
      pages: new Map(),
      error: null,

      open(jobId) {
        restart({ jobId, filter: 'all', search: '', source: null });
      },
      setFilter(filter) {
        if (filter !== get().filter) restart({ filter });
      },
      setSearch(search) {
        if (search !== get().search) restart({ search });
      },
      setSource(source) {
        if (source !== get().source) restart({ source });
      },
      showRows(first, last) {
        visible = new Set(pagesCovering(first, last, PAGE_SIZE));
        askForVisible();
      },
      refresh(jobId) {
        if (jobId !== get().jobId) return;
        // The visible pages are fetched again (those on screen stay until then); the others would
        // be stale, so they go. An empty table asks for its first page, to learn the new total.
        set((state) => ({
          pages: new Map([...state.pages].filter(([page]) => visible.has(page))),
        }));
        if (visible.size === 0) visible = new Set([0]);
        for (const page of visible) {
          if (inFlight.has(page)) askAgain.add(page);
          else stale.add(page);
        }
        askForVisible();
      },
    };
  });
}
