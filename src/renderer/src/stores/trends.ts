import { createStore } from 'zustand';
import type {
  CommandOutput,
  ConcordanceRow,
  ScriptoriumApi,
  TrendGrouping,
  TrendMeasure,
} from '../../../shared/contract';
import type { PeriodUnit } from '../../../shared/periods';
import { parseSearchQuery } from '../../../shared/search-query';
import { describeError, type ShownError } from '../lib/errors';
import type { SearchRequest } from './library';

export type TrendAnswer = CommandOutput<'libraryTrends'>;

/** Queries a trend compares, at most (the contract's bound). */
export const MAX_QUERIES = 5;
/** Channels, jobs or languages drawn as small multiples, at most. */
export const MAX_GROUPS = 8;
/** Hits of a period listed, at most. */
export const PERIOD_HITS = 200;

/** What narrows a trend besides its queries: the Library's filters, as the search sends them. */
export type TrendScope = Omit<SearchRequest, 'query'>;

/** The trend's settings as sent: queries, period, measure, grouping, scope. */
export interface TrendSettings {
  queries: string[];
  by: PeriodUnit;
  measure: TrendMeasure;
  per: TrendGrouping | null;
}

/** A period a user picked (on the chart or in the table): its hits are listed. */
export interface PickedPeriod {
  query: string;
  /** The group's key (null without `per`) and how it is named. */
  group: string | null;
  label: string;
  period: string;
  from: string;
  to: string;
}

export interface TrendsState extends TrendSettings {
  /** The query being typed, before it becomes a chip. */
  draft: string;
  /** Why the draft was not added (a query the parser cannot read, a sixth query), else null. */
  draftProblem: string | null;
  loading: boolean;
  answer: { settings: TrendSettings; scope: TrendScope; result: TrendAnswer } | null;
  error: ShownError | null;
  picked: PickedPeriod | null;
  periodHits: { hits: number; rows: ConcordanceRow[] } | null;
  periodHitsError: ShownError | null;

  setDraft(text: string): void;
  /** Makes the draft a chip; false (and a problem said) when it cannot be one. */
  addQuery(): boolean;
  removeQuery(query: string): void;
  setBy(by: PeriodUnit): void;
  setMeasure(measure: TrendMeasure): void;
  setPer(per: TrendGrouping | null): void;
  /** The Library's filters changed: the trend is counted again within them. */
  setScope(scope: TrendScope): void;
  pick(period: PickedPeriod | null): Promise<void>;
}

/**
 * The Trends view: queries as chips, counted again whenever a chip, the period, the measure, the
 * grouping or the Library's filters change. Each count has a generation; an answer to an older one
 * is dropped, as the search's are.
 */
export function createTrendsStore(api: ScriptoriumApi) {
  let generation = 0;
  let picking = 0;
  let scope: TrendScope = { jobId: null, language: null, channel: null };

  return createStore<TrendsState>()((set, get) => {
    const count = async (): Promise<void> => {
      generation += 1;
      const asked = generation;
      const { queries, by, measure, per } = get();
      const settings = { queries, by, measure, per };
      if (queries.length === 0) {
        set({ loading: false, answer: null, error: null, picked: null, periodHits: null });
        return;
      }
      set({ loading: true });
      const askedScope = scope;
      try {
        const result = await api.libraryTrends({
          ...settings,
          ...askedScope,
          limit: per === null ? null : MAX_GROUPS,
          withCsv: true,
        });
        if (asked === generation)
          set({
            answer: { settings, scope: askedScope, result },
            error: null,
            loading: false,
            picked: null,
            periodHits: null,
          });
      } catch (error) {
        if (asked === generation) set({ answer: null, error: describeError(error), loading: false });
      }
    };

    return {
      queries: [],
      by: 'month',
      measure: 'videos',
      per: null,
      draft: '',
      draftProblem: null,
      loading: false,
      answer: null,
      error: null,
      picked: null,
      periodHits: null,
      periodHitsError: null,

      setDraft(draft) {
        set({ draft, draftProblem: null });
      },
      addQuery() {
        const query = get().draft.trim();
        if (query === '') return false;
        const parsed = parseSearchQuery(query);
        let problem: string | null = null;
        if (!parsed.ok) problem = parsed.message;
        else if (get().queries.includes(query)) problem = `“${query}” is already charted.`;
        else if (get().queries.length >= MAX_QUERIES)
          problem = `A trend compares at most ${MAX_QUERIES} queries: remove one first.`;
        if (problem !== null) {
          set({ draftProblem: problem });
          return false;
        }
        set({ queries: [...get().queries, query], draft: '', draftProblem: null });
        void count();
        return true;
      },
      removeQuery(query) {
        set({ queries: get().queries.filter((q) => q !== query) });
        void count();
      },
      setBy(by) {
        set({ by });
        void count();
      },
      setMeasure(measure) {
        set({ measure });
        void count();
      },
      setPer(per) {
        set({ per });
        void count();
      },
      setScope(next) {
        if (next.jobId === scope.jobId && next.language === scope.language && next.channel === scope.channel)
          return;
        scope = next;
        void count();
      },
      async pick(period) {
        picking += 1;
        const asked = picking;
        set({ picked: period, periodHits: null, periodHitsError: null });
        const shown = get().answer;
        if (period === null || shown === null) return;
        const groupScope =
          period.group === null || shown.settings.per === null
            ? {}
            : shown.settings.per === 'job'
              ? { jobId: Number(period.group) }
              : shown.settings.per === 'language'
                ? { language: period.group }
                : { channel: period.group };
        try {
          const result = await api.libraryConcordance({
            ...shown.scope,
            ...groupScope,
            query: period.query,
            sort: 'date',
            context: 8,
            limit: PERIOD_HITS,
            within: { from: period.from, to: period.to },
          });
          if (asked === picking) set({ periodHits: result });
        } catch (error) {
          if (asked === picking) set({ periodHitsError: describeError(error) });
        }
      },
    };
  });
}
