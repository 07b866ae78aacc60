import { createStore } from 'zustand';
import type { CommandOutput, ConcordanceOptions, ScriptoriumApi } from '../../../shared/contract';
import { describeError, type ShownError } from '../lib/errors';
import type { SearchRequest } from './library';

export type ConcordanceAnswer = CommandOutput<'libraryConcordance'>;

/** Lines the table shows, at most; Export hits writes every one. */
export const CONCORDANCE_LINES = 500;

export interface ConcordanceState {
  options: ConcordanceOptions;
  loading: boolean;
  answer: { request: SearchRequest; options: ConcordanceOptions; result: ConcordanceAnswer } | null;
  error: ShownError | null;

  /** Reads the concordance of the search the Library shows (null: none), with the options set. */
  load(request: SearchRequest | null): Promise<void>;
  setOptions(change: Partial<ConcordanceOptions>): void;
}

/**
 * The concordance view: the search the Library shows, each hit with the words around it. Each read
 * has a generation; an answer to an older one is dropped.
 */
export function createConcordanceStore(api: ScriptoriumApi) {
  let generation = 0;
  let shown: SearchRequest | null = null;
  return createStore<ConcordanceState>()((set, get) => ({
    options: { context: 8, sort: 'relevance' },
    loading: false,
    answer: null,
    error: null,

    async load(request) {
      shown = request;
      generation += 1;
      const asked = generation;
      if (request === null) {
        set({ answer: null, error: null, loading: false });
        return;
      }
      const options = get().options;
      set({ loading: true });
      try {
        const result = await api.libraryConcordance({ ...request, ...options, limit: CONCORDANCE_LINES });
        if (asked === generation) set({ answer: { request, options, result }, error: null, loading: false });
      } catch (error) {
        if (asked === generation) set({ answer: null, error: describeError(error), loading: false });
      }
    },
    setOptions(change) {
      set({ options: { ...get().options, ...change } });
      void get().load(shown);
    },
  }));
}
