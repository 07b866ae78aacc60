import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { JobView } from '../../../../shared/contract';
import { JOB_STATUS } from '../../../../shared/vocabulary';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError, type ShownError } from '../../lib/errors';
import { availableActions } from '../../lib/job-state';
import { api, syncsStore, useSyncs } from '../../stores';
import { ExportDialog } from './ExportDialog';
import { JobConfirmation, type ConfirmedAction } from './JobConfirmation';

interface JobActionsProps {
  job: JobView;
  /** After the job is deleted (its card or screen is gone). */
  onDeleted(): void;
}

/**
 * What the user can do with a job: only the actions its state allows. Pause and Resume share one
 * button, so that the focus stays on it when the job's state flips; a draft (previewed, never run)
 * is started rather than resumed.
 */
export function JobActions({ job, onDeleted }: JobActionsProps) {
  const can = availableActions(job);
  const sync = useSyncs((state) => state.byJob[job.id]);
  const syncing = sync?.phase === 'syncing';
  const syncMessage = syncing ? 'Looking for new videos…' : sync?.phase === 'done' ? sync.message : '';
  const [dialog, setDialog] = useState<'export' | ConfirmedAction | null>(null);
  const group = useRef<HTMLDivElement>(null);
  const { busy, problem, run } = useOneActionAtATime(group);
  const jobId = job.id;
  const pause = () => void run('pause', () => api.pauseJob({ jobId }));
  const resume = () => void run('resume', () => api.resumeJob({ jobId }));
  const cancel = () =>
    void run('cancel', async () => {
      await api.cancelJob({ jobId });
      setDialog(null);
    });
  const retryFailed = () =>
    void run('retry', async () => {
      await api.retryFailed({ jobId });
      await api.resumeJob({ jobId });
    });
  const remove = () =>
    void run('delete', async () => {
      await api.deleteJob({ jobId });
      setDialog(null);
      onDeleted();
    });

  // Waiting for credits allows both: Resume (after a top-up) keeps the shared place, Pause follows.
  const primary = can.resume ? 'resume' : can.pause ? 'pause' : null;
  const secondaryPause = can.resume && can.pause;
  const busyProps = (name: string) => ({ 'aria-disabled': busy === name ? true : undefined });

  return (
    <div className="job-actions-wrap">
      <div className="job-actions" ref={group} role="group" aria-label={`Actions for ${job.title}`}>
        {primary !== null && (
          <button
            type="button"
            key="primary"
            className="button-primary"
            onClick={primary === 'resume' ? resume : pause}
            {...busyProps(primary)}
          >
            {primary === 'pause' ? 'Pause' : job.status === JOB_STATUS.draft ? 'Start' : 'Resume'}
          </button>
        )}
        {secondaryPause && (
          <button type="button" key="pause" onClick={pause} {...busyProps('pause')}>
            Pause
          </button>
        )}
        {can.cancel && (
          <button type="button" onClick={() => setDialog('cancel')} {...busyProps('cancel')}>
            Cancel
          </button>
        )}
        {can.retryFailed && (
          <button type="button" onClick={retryFailed} {...busyProps('retry')}>
            Retry failed
          </button>
        )}
        {/* Kept while syncing, although the job runs meanwhile, so that it says what it is doing. */}
        {(can.sync || syncing) && (
          <button
            type="button"
            onClick={() => void syncsStore.getState().sync(jobId)}
            aria-disabled={syncing || undefined}
          >
            {syncing ? 'Syncing…' : 'Sync'}
          </button>
        )}
        <button type="button" onClick={() => setDialog('export')}>
          Export
        </button>
        {can.remove && (
          <button type="button" className="button-danger" onClick={() => setDialog('delete')}>
            Delete
          </button>
        )}
      </div>
      <ErrorMessage error={problem} />
      <p role="status" className={syncMessage ? 'message message-info' : 'visually-hidden'}>
        {syncMessage}
      </p>
      {sync?.phase === 'failed' && <ErrorMessage error={sync.error} />}
      {dialog === 'export' && <ExportDialog job={job} onClose={() => setDialog(null)} />}
      {(dialog === 'cancel' || dialog === 'delete') && (
        <JobConfirmation
          action={dialog}
          job={job}
          busy={busy === dialog}
          problem={problem}
          onConfirm={dialog === 'cancel' ? cancel : remove}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

/**
 * Runs one of a job's actions at a time: which is under way, and the problem the last one met. A
 * button the user pressed may be gone once it is done (Cancel after cancelling): the focus then stays
 * in the group of buttons.
 */
function useOneActionAtATime(group: RefObject<HTMLDivElement | null>) {
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<ShownError | null>(null);
  const acted = useRef(false);

  useLayoutEffect(() => {
    if (!acted.current || (document.activeElement !== null && document.activeElement !== document.body))
      return;
    group.current?.querySelector<HTMLButtonElement>('button')?.focus();
  });

  const run = async (name: string, action: () => Promise<unknown>) => {
    if (busy !== null) return;
    acted.current = true;
    setBusy(name);
    setProblem(null);
    try {
      await action();
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(null);
    }
  };
  return { busy, problem, run };
}
