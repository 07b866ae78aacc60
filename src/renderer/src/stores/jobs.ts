import { createStore } from 'zustand';
import type { EventPayload, JobView, ScriptoriumApi } from '../../../shared/contract';
import { JOB_STATUS } from '../../../shared/vocabulary';
import { describeError } from '../lib/errors';

export interface RetryWait {
  /** The HTTP status that made the request wait. */
  status: number;
  /** When the wait ends (ms since the epoch). */
  until: number;
}

export interface JobsState {
  /** Every job by id, as the last listJobs or jobChanged told it. */
  byId: Readonly<Record<number, JobView>>;
  /** Job ids, newest first. */
  order: readonly number[];
  loaded: boolean;
  loadError: string | null;
  /** A request of the job waits before its next attempt. */
  retryWaits: Readonly<Record<number, RetryWait>>;
  /** The billing page a 402 named, by job. */
  billingUrls: Readonly<Record<number, string | null>>;
  /** The job the credits bar speaks of; null lets it pick the most relevant one. */
  selectedJobId: number | null;

  load(): Promise<void>;
  jobChanged(job: JobView): void;
  jobRemoved(event: EventPayload<'jobRemoved'>): void;
  retryWaited(event: EventPayload<'retryWait'>): void;
  paymentRequired(event: EventPayload<'paymentRequired'>): void;
  select(jobId: number | null): void;
  /** Names the job; null names it after what it holds again. Throws ContractError when refused. */
  rename(jobId: number, name: string | null): Promise<void>;
  /** Marks the job Keep current, or not. Throws ContractError when refused. */
  setKeepCurrent(jobId: number, on: boolean): Promise<void>;
  /**
   * Sets the file the job's corpus is written to after each automatic sync (a path the desktop's save
   * dialog returned), or none. Throws ContractError when refused.
   */
  setAutoExport(jobId: number, destination: string | null): Promise<void>;
}

const newestFirst = (byId: Readonly<Record<number, JobView>>): number[] =>
  Object.keys(byId)
    .map(Number)
    .sort((a, b) => b - a);

/**
 * The jobs, fed by listJobs once and by jobChanged and jobRemoved events after that (never polled).
 * Events that arrive while the list is loading win over it, since they are newer.
 */
export function createJobsStore(api: ScriptoriumApi, now: () => number = Date.now) {
  /** While a load is under way: jobs that events changed or removed meanwhile. */
  let duringLoad: { changed: Set<number>; removed: Set<number> } | null = null;

  return createStore<JobsState>()((set, get) => ({
    byId: {},
    order: [],
    loaded: false,
    loadError: null,
    retryWaits: {},
    billingUrls: {},
    selectedJobId: null,

    async load() {
      const seen = { changed: new Set<number>(), removed: new Set<number>() };
      duringLoad = seen;
      try {
        const listed = await api.listJobs({});
        const current = get().byId;
        const byId: Record<number, JobView> = {};
        for (const job of listed) if (!seen.removed.has(job.id)) byId[job.id] = job;
        for (const id of seen.changed) {
          const job = current[id];
          if (job !== undefined && !seen.removed.has(id)) byId[id] = job;
        }
        set({ byId, order: newestFirst(byId), loaded: true, loadError: null });
      } catch (error) {
        set({ loaded: true, loadError: describeError(error).message });
      } finally {
        if (duringLoad === seen) duringLoad = null;
      }
    },

    jobChanged(job) {
      duringLoad?.changed.add(job.id);
      set((state) => {
        const byId = { ...state.byId, [job.id]: job };
        return state.byId[job.id] === undefined ? { byId, order: newestFirst(byId) } : { byId };
      });
    },

    jobRemoved({ jobId }) {
      duringLoad?.removed.add(jobId);
      set((state) => {
        if (state.byId[jobId] === undefined) return {};
        const byId = { ...state.byId };
        delete byId[jobId];
        return {
          byId,
          order: newestFirst(byId),
          selectedJobId: state.selectedJobId === jobId ? null : state.selectedJobId,
        };
      });
    },

    retryWaited({ jobId, status, waitMs }) {
      set((state) => ({ retryWaits: { ...state.retryWaits, [jobId]: { status, until: now() + waitMs } } }));
    },

    paymentRequired({ jobId, billingUrl }) {
      set((state) => ({ billingUrls: { ...state.billingUrls, [jobId]: billingUrl } }));
    },

    select(jobId) {
      if (get().selectedJobId !== jobId) set({ selectedJobId: jobId });
    },

    async rename(jobId, name) {
      get().jobChanged(await api.renameJob({ jobId, name }));
    },

    async setKeepCurrent(jobId, on) {
      get().jobChanged(await api.setKeepCurrent({ jobId, on }));
    },

    async setAutoExport(jobId, destination) {
      get().jobChanged(await api.setAutoExport({ jobId, destination }));
    },
  }));
}

const ACTIVE: ReadonlySet<JobView['status']> = new Set([
  JOB_STATUS.running,
  JOB_STATUS.queued,
  JOB_STATUS.waiting_credits,
]);

/** The job the credits bar speaks of: the one the user chose, else a job at work, else the newest. */
export function focusedJobId(state: Pick<JobsState, 'byId' | 'order' | 'selectedJobId'>): number | null {
  if (state.selectedJobId !== null && state.byId[state.selectedJobId] !== undefined)
    return state.selectedJobId;
  const active = state.order.find((id) => {
    const job = state.byId[id];
    return job !== undefined && ACTIVE.has(job.status);
  });
  return active ?? state.order[0] ?? null;
}

/** Jobs waiting for credits, oldest first: each gets its part of the credits alert. */
export function jobsWaitingForCredits(state: Pick<JobsState, 'byId' | 'order'>): number[] {
  return state.order.filter((id) => state.byId[id]?.status === JOB_STATUS.waiting_credits).reverse();
}
