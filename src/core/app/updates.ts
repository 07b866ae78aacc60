import type { UpdateStatus } from '../../shared/contract';
import { APP_VERSION } from '../../shared/version';

/**
 * A newer release of the app, as the face that can update itself sees it: the desktop app's
 * updater (src/main/updates), given to openApp. The updates domain of the contract speaks through it.
 */
export interface Updates {
  status(): UpdateStatus;
  /** Looks for a newer release now. */
  check(): Promise<UpdateStatus>;
  /** Downloads the release on offer. */
  download(): Promise<UpdateStatus>;
  /** Quits and installs the downloaded release. */
  install(): Promise<UpdateStatus>;
  /** Settings' "Check for updates" was saved. */
  checkingChanged(on: boolean): void;
  /** Hears every change of the status. */
  onChange(listener: (status: UpdateStatus) => void): () => void;
}

/** What a face that does not update itself answers, saying why. */
export function noUpdates(message: string): Updates {
  const status: UpdateStatus = {
    current: APP_VERSION,
    state: { phase: 'unsupported', message },
    waiting: null,
  };
  return {
    status: () => status,
    check: async () => status,
    download: async () => status,
    install: async () => status,
    checkingChanged: () => undefined,
    onChange: () => () => undefined,
  };
}

/** Browser mode and the CLI, run from npm or a checkout. */
export const NO_UPDATES = noUpdates(
  'This copy of Scriptorium does not update itself: it runs from its source or npm (update it there). The desktop app looks for new releases.',
);
