import type { JobDetail, JobDraft, ScriptoriumApi, SourceLine } from '../../../shared/contract';
import { ContractError } from '../../../shared/contract-error';
import { describeError, type ShownError } from '../lib/errors';

export type PreviewState =
  | { phase: 'idle' }
  /** The lists are being walked; jobId once the draft's job is known. */
  | { phase: 'walking'; jobId: number | null; stopping: boolean }
  | { phase: 'done'; detail: JobDetail; rejected: SourceLine[]; stoppedByUser: boolean }
  | { phase: 'failed'; error: ShownError };

export interface PreviewActions {
  runPreview(): Promise<void>;
  stopPreview(): Promise<void>;
}

/** What the preview needs of the rest of the New job form. */
export interface PreviewForm {
  set(change: { preview: PreviewState }): void;
  preview(): PreviewState;
  /** The draft to preview, or null once the form has said what is missing. */
  draft(): JobDraft | null;
  /** Counts the edits so far, so that a preview of text changed since is not shown as the current one. */
  edits(): number;
}

/** Preview walks the draft's lists without buying a transcript; Stop pauses that walk. */
export function createPreviewActions(api: ScriptoriumApi, form: PreviewForm): PreviewActions {
  /** Numbers the previews: only the latest one may change the form. */
  let latest = 0;
  return {
    async runPreview() {
      const draft = form.draft();
      if (draft === null || form.preview().phase === 'walking') return;
      const run = ++latest;
      const version = form.edits();
      /** Whether the form is still the one this preview was asked for: Start or an edit moves it on. */
      const current = () => run === latest && form.edits() === version;
      form.set({ preview: { phase: 'walking', jobId: null, stopping: false } });
      let made: number | null = null;
      try {
        // Nothing is made for a preview that could not run: no key or no address is said first.
        await api.checkService({});
        // The draft's job next, so that its id is known while its lists are walked: the
        // preview is followed through jobChanged events and stopped with pauseJob.
        const { job, created } = await api.createJob({ draft, start: false });
        if (created) made = job.id;
        if (current()) form.set({ preview: { phase: 'walking', jobId: job.id, stopping: false } });
        const { detail, rejected } = await api.previewJob({ draft });
        const preview = form.preview();
        const stoppedByUser = preview.phase === 'walking' && preview.stopping;
        if (current()) form.set({ preview: { phase: 'done', detail, rejected, stoppedByUser } });
        else if (run === latest) form.set({ preview: { phase: 'idle' } });
      } catch (error) {
        // The form moved on meanwhile: this failure is no longer its own, and the job the preview
        // made may be the one Start queued.
        if (!current()) {
          if (run === latest) form.set({ preview: { phase: 'idle' } });
          return;
        }
        // A key the service refused bought nothing: the job this preview made goes again.
        if (made !== null && error instanceof ContractError && error.code === 'key_refused')
          await api.deleteJob({ jobId: made }).catch(() => undefined);
        form.set({ preview: { phase: 'failed', error: describeError(error) } });
      }
    },

    async stopPreview() {
      const preview = form.preview();
      if (preview.phase !== 'walking' || preview.jobId === null || preview.stopping) return;
      form.set({ preview: { ...preview, stopping: true } });
      try {
        await api.pauseJob({ jobId: preview.jobId });
      } catch (error) {
        form.set({ preview: { phase: 'failed', error: describeError(error) } });
      }
    },
  };
}
