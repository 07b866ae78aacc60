import { useState } from 'react';
import type { Settings, UpdateStatus } from '../../../../shared/contract';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ExternalLink } from '../../components/ExternalLink';
import { Choice } from '../../components/FormFields';
import { ProgressBar } from '../../components/ProgressBar';
import { describeError } from '../../lib/errors';
import { formatBytes, formatWhen } from '../../lib/format';
import { settingsStore, updatesStore, useUpdates } from '../../stores';

/**
 * Settings' Updates: whether the app looks for new releases by itself, and what it found. Where the
 * package can (the Windows installer, the AppImage, a signed Mac app) the user downloads the new
 * version and restarts into it; the deb, the rpm and an unsigned Mac app are told where the new
 * package is, with its checksum. Nothing happens while a job runs.
 */
export function UpdatesSection({ settings }: { settings: Settings['updates'] }) {
  const status = useUpdates((state) => state.status);
  const problem = useUpdates((state) => state.problem);
  const [saveProblem, setSaveProblem] = useState<string | null>(null);
  // Shown as clicked at once; put back if it could not be saved.
  const [checking, setChecking] = useState(settings.check);
  const turn = async (check: boolean) => {
    setSaveProblem(null);
    setChecking(check);
    try {
      await settingsStore.getState().saveUpdates({ check });
      await updatesStore.getState().load();
    } catch (error) {
      setChecking(!check);
      setSaveProblem(describeError(error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="updates-heading">
      <h2 id="updates-heading">Updates</h2>
      <Choice
        id="check-for-updates"
        label="Check for updates"
        help="The desktop app asks the project's GitHub Releases whether a newer version exists, a minute after it starts and twice a day, never while a job runs. It sends nothing else, and installs nothing without you."
        checked={checking}
        onChange={(check) => void turn(check)}
      />
      {status !== null && <UpdateOffer status={status} />}
      <ErrorMessage error={saveProblem ?? problem} />
    </section>
  );
}

/** What was found, and the step the user may take next. */
function UpdateOffer({ status }: { status: UpdateStatus }) {
  const { state, current, waiting } = status;
  const held = waiting !== null || undefined;
  const run = (action: () => Promise<void>) => () => {
    if (waiting === null) void action();
  };
  const checkNow = (
    <button type="button" aria-disabled={held} onClick={run(() => updatesStore.getState().check())}>
      Check now
    </button>
  );
  return (
    <div className="update-offer">
      {waiting !== null && <p className="help">{waiting}</p>}
      {(() => {
        switch (state.phase) {
          case 'unsupported':
            return <p>{state.message}</p>;
          case 'off':
            return <p>Scriptorium {current} does not look for new releases.</p>;
          case 'current':
            return (
              <>
                <p role="status">
                  {state.checkedAt === null
                    ? `Scriptorium ${current}: not looked for a new release yet.`
                    : `Scriptorium ${current} is the latest release (looked ${formatWhen(state.checkedAt)}).`}
                </p>
                <div className="form-actions">{checkNow}</div>
              </>
            );
          case 'checking':
            return <p role="status">Looking for a new release…</p>;
          case 'available':
            return (
              <>
                <p role="status">
                  Scriptorium {state.version} is available (this is {current}).{' '}
                  <ExternalLink href={state.releaseUrl}>Release page</ExternalLink>
                </p>
                {state.offer === 'install' ? (
                  <div className="form-actions">
                    <button
                      type="button"
                      className="button-primary"
                      aria-disabled={held}
                      onClick={run(() => updatesStore.getState().download())}
                    >
                      Download update
                    </button>
                  </div>
                ) : (
                  <PackageToDownload file={state.file} />
                )}
              </>
            );
          case 'downloading':
            return (
              <ProgressBar
                label={`Downloading Scriptorium ${state.version}`}
                value={state.percent}
                max={100}
                valueText={`${state.percent} percent`}
              />
            );
          case 'downloaded':
            return (
              <>
                <p role="status">
                  Scriptorium {state.version} is downloaded and matches its checksum: restart to install it.
                </p>
                <div className="form-actions">
                  <button
                    type="button"
                    className="button-primary"
                    aria-disabled={held}
                    onClick={run(() => updatesStore.getState().install())}
                  >
                    Restart to update
                  </button>
                </div>
              </>
            );
          case 'failed':
            return (
              <>
                <p role="alert">{state.message}</p>
                <div className="form-actions">{checkNow}</div>
              </>
            );
        }
      })()}
    </div>
  );
}

/** For a package that cannot replace itself: which file to take from the release page, and its checksum. */
function PackageToDownload({ file }: { file: { name: string; sha512: string; size: number } | null }) {
  if (file === null) {
    return <p>Take the package you installed from the release page, and install it as before.</p>;
  }
  return (
    <>
      <p>
        Take <code>{file.name}</code> ({formatBytes(file.size)}) from the release page and install it as
        before. Before installing, <code>sha512sum {file.name}</code> should print:
      </p>
      <p className="checksum">
        <code aria-label="SHA-512">{file.sha512}</code>
      </p>
    </>
  );
}
