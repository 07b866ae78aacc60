import { useState } from 'react';
import type { JobView } from '../../../../shared/contract';
import { SYNC_EVERY_HOURS } from '../../../../shared/vocabulary';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useNowAt } from '../../components/useNowAt';
import { describeError, type ShownError } from '../../lib/errors';
import { suggestedZipName } from '../../lib/export-names';
import { describeSyncProblem, describeSyncTimes, everyHours } from '../../lib/keep-current';
import { jobsStore, useSettings } from '../../stores';
import { desktop } from '../../transport';

/**
 * The job's "Keep current" checkbox, for a job with a playlist or a channel (nothing for another):
 * when it was last synced and is synced next and, in the desktop app, the file written after each
 * sync. Browser mode exports as downloads only, so there the file is not offered, and it says why.
 */
export function KeepCurrent({ job }: { job: JobView }) {
  const view = job.keepCurrent;
  const hours = useSettings(
    (state) => state.settings?.keepCurrent.syncEveryHours ?? SYNC_EVERY_HOURS.default,
  );
  // The box shows the user's choice at once; the job's view confirms it (or the change is undone).
  const [choice, setChoice] = useState<boolean | null>(null);
  const [problem, setProblem] = useState<ShownError | null>(null);
  const now = useNowAt(view.nextSyncAt === null ? null : Date.parse(view.nextSyncAt));
  if (!view.available) return null;

  const id = `keep-current-${job.id}`;
  const marked = choice ?? view.marked;
  const change = async (on: boolean) => {
    if (choice !== null) return;
    setChoice(on);
    setProblem(null);
    try {
      await jobsStore.getState().setKeepCurrent(job.id, on);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setChoice(null);
    }
  };

  return (
    <div className="keep-current">
      <div className="choice">
        <input
          id={id}
          type="checkbox"
          checked={marked}
          aria-describedby={`${id}-help`}
          onChange={(event) => void change(event.target.checked)}
        />
        <label htmlFor={id}>Keep current</label>
        <span id={`${id}-help`} className="help">
          {view.marked
            ? describeSyncTimes(view, now)
            : `Syncs its playlists and channels when Scriptorium starts and ${everyHours(hours)} while it runs, buying only new videos.`}
        </span>
      </div>
      {view.syncProblem !== null && <p className="note note-warning">{describeSyncProblem(view)}</p>}
      <ErrorMessage error={problem} />
      {view.marked && <AutoExport job={job} />}
    </div>
  );
}

/**
 * Where the job's corpus is written after each sync. The file is chosen in the desktop app's save
 * dialog, never typed: the main process accepts only a path its dialog returned (export-destinations.ts).
 */
function AutoExport({ job }: { job: JobView }) {
  const path = job.keepCurrent.autoExportPath;
  const os = desktop();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ShownError | null>(null);

  /** Sets the file `choose` gives (undefined: the user cancelled), or none when it gives null. */
  const setFile = async (choose: () => Promise<string | null | undefined>) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const destination = await choose();
      if (destination !== undefined) await jobsStore.getState().setAutoExport(job.id, destination);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  const choose = () =>
    void setFile(async () => (await os?.chooseExportPath(suggestedZipName(job))) ?? undefined);
  const stop = () => void setFile(async () => null);

  return (
    <div className="auto-export">
      {path !== null && (
        <p className="note">
          After each sync, its corpus is written to <span className="path">{path}</span>.
        </p>
      )}
      {os === undefined && path === null && (
        <p className="note">
          In browser mode exports are downloads only: after a sync, Export downloads the new version. The
          desktop app can also write it to a file after each sync.
        </p>
      )}
      {(os !== undefined || path !== null) && (
        <div className="job-actions">
          {os !== undefined && (
            <button type="button" onClick={choose} aria-disabled={busy || undefined}>
              Export after each sync to…
            </button>
          )}
          {path !== null && (
            <button type="button" onClick={stop} aria-disabled={busy || undefined}>
              Stop exporting after each sync
            </button>
          )}
        </div>
      )}
      <ErrorMessage error={problem} />
    </div>
  );
}
