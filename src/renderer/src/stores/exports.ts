import { createStore } from 'zustand';
import type { CommandInput, CommandOutput, EventPayload, ScriptoriumApi } from '../../../shared/contract';
import { describeError, type ShownError } from '../lib/errors';

export type ExportState =
  | { phase: 'writing'; done: number; total: number }
  | { phase: 'done'; result: CommandOutput<'exportJob'> }
  | { phase: 'failed'; error: ShownError };

export interface ExportsState {
  /** The last export of each job, while its dialog may show it. */
  byJob: Readonly<Record<number, ExportState>>;
  /**
   * Writes the job's ZIP to `destination`, or for download when it is null, with the citation given
   * (kept with the job for its next exports).
   */
  start(jobId: number, request: Omit<CommandInput<'exportJob'>, 'jobId'>): Promise<void>;
  progress(event: EventPayload<'exportProgress'>): void;
  forget(jobId: number): void;
}

/**
 * Exports under way and done. The export's id is known only when the ZIP is written, so progress
 * is matched by job: one export per job at a time.
 */
export function createExportsStore(api: ScriptoriumApi) {
  return createStore<ExportsState>()((set, get) => {
    const put = (jobId: number, state: ExportState) =>
      set((current) => ({ byJob: { ...current.byJob, [jobId]: state } }));

    return {
      byJob: {},
      async start(jobId, request) {
        if (get().byJob[jobId]?.phase === 'writing') return;
        put(jobId, { phase: 'writing', done: 0, total: 0 });
        try {
          put(jobId, { phase: 'done', result: await api.exportJob({ jobId, ...request }) });
        } catch (error) {
          put(jobId, { phase: 'failed', error: describeError(error) });
        }
      },
      progress({ jobId, done, total }) {
        if (get().byJob[jobId]?.phase === 'writing') put(jobId, { phase: 'writing', done, total });
      },
      forget(jobId) {
        set((current) => {
          const byJob = { ...current.byJob };
          delete byJob[jobId];
          return { byJob };
        });
      },
    };
  });
}
