import { createStore } from 'zustand';
import type {
  CommandInput,
  CommandOutput,
  ConcordanceOptions,
  EventPayload,
  ScriptoriumApi,
} from '../../../shared/contract';
import { ContractError } from '../../../shared/contract-error';
import { describeError, type ShownError } from '../lib/errors';

/** How long typing must pause before the library is searched: short enough to feel immediate. */
export const SEARCH_DELAY_MS = 150;

export type SearchAnswer = CommandOutput<'searchTranscripts'>;

/** What narrows a search besides its words, as typed (an empty language or channel: any). */
export interface SearchFilters {
  jobId: number | null;
  language: string;
  channel: string;
}

/** A search as sent: the words and the filters, which Export results and Export these videos reuse. */
export type SearchRequest = Pick<
  CommandInput<'searchTranscripts'>,
  'query' | 'jobId' | 'language' | 'channel'
>;

function requestOf(query: string, filters: SearchFilters): SearchRequest {
  return { query, ...scopeOf(filters) };
}

/** The filters as a search sends them: an empty language or channel is none. */
export function scopeOf({ jobId, language, channel }: SearchFilters): Omit<SearchRequest, 'query'> {
  const given = (text: string) => (text.trim() === '' ? null : text.trim());
  return { jobId, language: given(language), channel: given(channel) };
}

export type ResultsExport =
  /**
   * `progress`: hits written of those to write, and the export's id (which cancels it), once the
   * app has said; `cancelling` once the user has asked to cancel it.
   */
  | {
      phase: 'writing';
      progress: { exportId: string; done: number; total: number } | null;
      cancelling: boolean;
    }
  | { phase: 'done'; result: CommandOutput<'exportSearchResults'> }
  /** Cancelled by the user: no file was written. */
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: ShownError };

export type VideosJob =
  | { phase: 'making' }
  | { phase: 'done'; result: CommandOutput<'createJobFromSearch'> }
  | { phase: 'failed'; error: ShownError };

export interface LibraryState {
  /** The words as typed. */
  query: string;
  filters: SearchFilters;
  /** True from a keystroke until the answer to the search it leads to. */
  searching: boolean;
  /** The last answer, with the search it answers (shown while a newer one is under way). */
  answer: { request: SearchRequest; result: SearchAnswer } | null;
  /** Why the last search was refused (a query the parser cannot read, said plainly), else null. */
  error: ShownError | null;
  resultsExport: ResultsExport | null;
  videosJob: VideosJob | null;
  /** How far indexing the stored transcripts has come (after an upgrade); null when it is not under way. */
  indexing: EventPayload<'libraryIndexing'> | null;

  setQuery(query: string): void;
  setFilters(change: Partial<SearchFilters>): void;
  /**
   * Writes the hits of the search shown as CSV: to `destination`, or for download when it is null;
   * as a concordance (the words around each hit) when `concordance` is given.
   */
  exportResults(destination: string | null, concordance?: ConcordanceOptions | null): Promise<void>;
  /** Cancels the Export results being written (once the app has named it). */
  cancelExport(): Promise<void>;
  /** Makes a job of the videos of the search shown; resolves with its id, or null when it failed. */
  makeJob(): Promise<number | null>;
  forgetExport(): void;
  /** Reads whether the app is indexing stored transcripts (the screen opens while it may be). */
  loadStatus(): Promise<void>;
  /** The app's libraryIndexing event. */
  indexed(progress: EventPayload<'libraryIndexing'>): void;
  /** The app's searchExportProgress event: how far Export results has come. */
  exportProgressed(progress: EventPayload<'searchExportProgress'>): void;
}

/**
 * The Library screen's search: searched as the user types, once typing pauses (SEARCH_DELAY_MS).
 * Each search has a generation; an answer to an older one is dropped, so a slow answer to "ri"
 * never replaces the answer to "river".
 */
export function createLibraryStore(
  api: ScriptoriumApi,
  timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis,
) {
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  return createStore<LibraryState>()((set, get) => {
    const search = async (asked: number, request: SearchRequest): Promise<void> => {
      try {
        const result = await api.searchTranscripts({ ...request, limit: 100 });
        if (asked === generation) set({ answer: { request, result }, error: null, searching: false });
      } catch (error) {
        if (asked === generation) set({ answer: null, error: describeError(error), searching: false });
      }
    };
    const schedule = () => {
      generation += 1;
      const asked = generation;
      timers.clearTimeout(timer);
      const { query, filters } = get();
      if (query.trim() === '') {
        set({ searching: false, answer: null, error: null });
        return;
      }
      set({ searching: true });
      timer = timers.setTimeout(() => void search(asked, requestOf(query, filters)), SEARCH_DELAY_MS);
    };

    return {
      query: '',
      filters: { jobId: null, language: '', channel: '' },
      searching: false,
      answer: null,
      error: null,
      resultsExport: null,
      videosJob: null,
      indexing: null,

      setQuery(query) {
        if (query === get().query) return;
        set({ query, resultsExport: null, videosJob: null });
        schedule();
      },
      setFilters(change) {
        set({ filters: { ...get().filters, ...change }, resultsExport: null, videosJob: null });
        schedule();
      },
      async exportResults(destination, concordance = null) {
        const shown = get().answer;
        if (shown === null || get().resultsExport?.phase === 'writing') return;
        set({ resultsExport: { phase: 'writing', progress: null, cancelling: false } });
        try {
          const result = await api.exportSearchResults({ ...shown.request, destination, concordance });
          set({ resultsExport: { phase: 'done', result } });
        } catch (error) {
          const cancelled =
            writing(get().resultsExport)?.cancelling === true &&
            error instanceof ContractError &&
            error.code === 'interrupted';
          set({
            resultsExport: cancelled
              ? { phase: 'cancelled' }
              : { phase: 'failed', error: describeError(error) },
          });
        }
      },
      async cancelExport() {
        const under = writing(get().resultsExport);
        if (under?.progress == null || under.cancelling) return;
        set({ resultsExport: { ...under, cancelling: true } });
        try {
          await api.cancelSearchExport({ exportId: under.progress.exportId });
        } catch {
          // The export goes on, and says how it ends; the user may cancel again.
          const still = writing(get().resultsExport);
          if (still !== undefined) set({ resultsExport: { ...still, cancelling: false } });
        }
      },
      async makeJob() {
        const shown = get().answer;
        if (shown === null || get().videosJob?.phase === 'making') return null;
        set({ videosJob: { phase: 'making' } });
        try {
          const result = await api.createJobFromSearch(shown.request);
          set({ videosJob: { phase: 'done', result } });
          return result.job.id;
        } catch (error) {
          set({ videosJob: { phase: 'failed', error: describeError(error) } });
          return null;
        }
      },
      forgetExport() {
        set({ resultsExport: null });
      },
      async loadStatus() {
        try {
          const { indexing } = await api.libraryStatus({});
          // An event may have come meanwhile, with newer news.
          if (indexing !== null && (get().indexing?.done ?? -1) < indexing.done) set({ indexing });
        } catch {
          // The status is news, not a need: the screen works without it.
        }
      },
      indexed(progress) {
        set({ indexing: progress });
      },
      exportProgressed({ exportId, done, total }) {
        const under = writing(get().resultsExport);
        // The first export the app names while this one is written is this one.
        if (under === undefined || (under.progress !== null && under.progress.exportId !== exportId)) return;
        set({ resultsExport: { ...under, progress: { exportId, done, total } } });
      },
    };
  });
}

/** The Export results being written, if that is where it is. */
function writing(state: ResultsExport | null): Extract<ResultsExport, { phase: 'writing' }> | undefined {
  return state?.phase === 'writing' ? state : undefined;
}
