import type { AppUpdater, ProgressInfo, UpdateInfo } from 'electron-updater';
import { AppError, type Updates } from '../../core/app';
import type { UpdateState, UpdateStatus } from '../../shared/contract';

// What the app does about a newer release (docs/product.md, Updates): when it looks, what it offers
// for this kind of package, and that it does nothing while a job runs. electron-updater does the
// looking, downloading (checked against the release's SHA-512) and installing; this module decides.
// It never imports Electron, so tests drive it under Node with electron-updater against a local
// release feed (tests/main/updates.test.ts).

/** The first look, a while after the app starts (never in the way of its start). */
export const FIRST_CHECK_MS = 60_000;
/** Then twice a day while the app runs. */
export const CHECK_EVERY_MS = 12 * 60 * 60_000;

/** The parts of electron-updater's updater the app uses. */
export type Updater = Pick<
  AppUpdater,
  'autoDownload' | 'autoInstallOnAppQuit' | 'checkForUpdates' | 'downloadUpdate' | 'quitAndInstall' | 'on'
>;

/** Runs `work` after `ms`; the function returned cancels it. */
export type After = (ms: number, work: () => void) => () => void;

export interface AppUpdatesOptions {
  updater: Updater;
  /** The version running. */
  current: string;
  /**
   * What this kind of package allows: `install` (the nsis installer, the AppImage, a signed Mac app)
   * or `download` (the deb, the rpm, an unsigned Mac app: the app says where the package is).
   */
  offer: 'install' | 'download';
  /** Which file of a release is this kind of package, by its name: the one whose checksum is shown. */
  isOwnPackage(fileName: string): boolean;
  /** The page of a release, by its version. */
  releaseUrl(version: string): string;
  /** Whether a job is running now; updates wait until none does. */
  jobRunning(): boolean;
  /** Settings' "Check for updates" as the app starts. */
  checking: boolean;
  after: After;
  now(): Date;
}

/** The first line of an error's message, short enough to show (electron-updater's carry stacks and XML). */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** electron-updater's checksums are base64; `sha512sum` prints hex. */
const hexOf = (base64: string): string => Buffer.from(base64, 'base64').toString('hex');

/** What the release feed says when the repository has no release yet: nothing newer, not a failure. */
function noReleaseYet(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (
    code === 'ERR_UPDATER_NO_PUBLISHED_VERSIONS' ||
    code === 'ERR_UPDATER_LATEST_VERSION_NOT_FOUND' ||
    (message ?? '').startsWith('No published versions')
  );
}

const JOB_RUNNING = 'A job is running: updates wait until it ends (or pause it).';

/** The desktop app's updater, as the contract's updates commands see it (core/app `Updates`). */
export class AppUpdates implements Updates {
  readonly #options: AppUpdatesOptions;
  readonly #listeners = new Set<(status: UpdateStatus) => void>();
  #checking: boolean;
  #state: UpdateState;
  /** The next scheduled look; undefined while none is scheduled. */
  #cancelNext: (() => void) | undefined;
  /** A look came due while a job ran: it runs when no job does (jobsChanged). */
  #postponed = false;

  constructor(options: AppUpdatesOptions) {
    this.#options = options;
    this.#checking = options.checking;
    this.#state = options.checking ? { phase: 'current', checkedAt: null } : { phase: 'off' };
    // The user agrees to each step: nothing downloads or installs by itself.
    options.updater.autoDownload = false;
    options.updater.autoInstallOnAppQuit = false;
    options.updater.on('download-progress', (progress: ProgressInfo) => {
      if (this.#state.phase !== 'downloading') return;
      this.#set({ ...this.#state, percent: Math.min(100, Math.max(0, Math.round(progress.percent))) });
    });
  }

  /** Starts looking by itself: a while after the start, then at every interval. */
  start(): void {
    this.#schedule(FIRST_CHECK_MS);
  }

  /** Stops looking by itself. */
  stop(): void {
    this.#cancelNext?.();
    this.#cancelNext = undefined;
  }

  status(): UpdateStatus {
    return {
      current: this.#options.current,
      state: this.#state,
      waiting: this.#state.phase !== 'off' && this.#options.jobRunning() ? JOB_RUNNING : null,
    };
  }

  onChange(listener: (status: UpdateStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  checkingChanged(on: boolean): void {
    if (on === this.#checking) return;
    this.#checking = on;
    this.stop();
    this.#postponed = false;
    if (on) {
      this.#set({ phase: 'current', checkedAt: null });
      this.#schedule(FIRST_CHECK_MS);
    } else if (this.#state.phase !== 'downloading') {
      this.#set({ phase: 'off' });
    }
  }

  /** A job started or ended: the waiting changes, and a look that came due meanwhile runs now. */
  jobsChanged(): void {
    this.#emit();
    if (this.#postponed && !this.#options.jobRunning()) {
      this.#postponed = false;
      void this.#lookByItself();
    }
  }

  async check(): Promise<UpdateStatus> {
    if (!this.#checking) {
      throw new AppError(
        'invalid_input',
        'Check for updates is off in Settings: turn it on to look for a new release.',
      );
    }
    this.#refuseWhileJobRuns();
    if (this.#state.phase === 'checking' || this.#state.phase === 'downloading') return this.status();
    this.#set({ phase: 'checking' });
    try {
      const result = await this.#options.updater.checkForUpdates();
      if (result === null) {
        this.#set({
          phase: 'unsupported',
          message: 'This copy of Scriptorium has no release feed to look at.',
        });
      } else if (!result.isUpdateAvailable) {
        this.#set({ phase: 'current', checkedAt: this.#options.now().toISOString() });
      } else {
        this.#set(this.#offerOf(result.updateInfo));
      }
    } catch (error) {
      if (noReleaseYet(error)) {
        this.#set({ phase: 'current', checkedAt: this.#options.now().toISOString() });
      } else {
        this.#set({ phase: 'failed', message: `Could not look for a new release: ${firstLine(error)}` });
      }
    }
    return this.status();
  }

  async download(): Promise<UpdateStatus> {
    const state = this.#state;
    if (state.phase !== 'available' || state.offer !== 'install') {
      throw new AppError('invalid_input', 'No new release to download: look for one first.');
    }
    this.#refuseWhileJobRuns();
    this.#set({ phase: 'downloading', version: state.version, percent: 0 });
    try {
      await this.#options.updater.downloadUpdate();
      this.#set({ phase: 'downloaded', version: state.version });
    } catch (error) {
      const tampered = (error as { code?: string }).code === 'ERR_CHECKSUM_MISMATCH';
      this.#set({
        phase: 'failed',
        message: tampered
          ? `The download of ${state.version} did not match the release's SHA-512 checksum, so it was discarded and nothing was installed. Try again later.`
          : `Could not download ${state.version}: ${firstLine(error)}`,
      });
    }
    return this.status();
  }

  async install(): Promise<UpdateStatus> {
    if (this.#state.phase !== 'downloaded') {
      throw new AppError('invalid_input', 'No new release is downloaded yet.');
    }
    this.#refuseWhileJobRuns();
    this.stop();
    // Quits the app, installs, and starts the new version.
    this.#options.updater.quitAndInstall(false, true);
    return this.status();
  }

  /** What to offer for a newer release: this package's file in it, with its checksum, and the page. */
  #offerOf(info: UpdateInfo): UpdateState {
    const file = info.files.find((candidate) => this.#options.isOwnPackage(candidate.url.split('/').at(-1)!));
    return {
      phase: 'available',
      version: info.version,
      offer: this.#options.offer,
      releaseUrl: this.#options.releaseUrl(info.version),
      file:
        file === undefined
          ? null
          : { name: file.url.split('/').at(-1)!, sha512: hexOf(file.sha512), size: file.size ?? 0 },
    };
  }

  #refuseWhileJobRuns(): void {
    if (this.#options.jobRunning()) throw new AppError('job_running', JOB_RUNNING);
  }

  #schedule(ms: number): void {
    this.#cancelNext?.();
    this.#cancelNext = this.#options.after(ms, () => {
      this.#cancelNext = undefined;
      void this.#lookByItself();
    });
  }

  /** A look the app takes by itself: only while checking is on, and never while a job runs. */
  async #lookByItself(): Promise<void> {
    if (!this.#checking) return;
    if (this.#options.jobRunning()) {
      this.#postponed = true;
      return;
    }
    const busy = ['checking', 'downloading', 'downloaded'].includes(this.#state.phase);
    if (!busy) await this.check().catch(() => undefined);
    this.#schedule(CHECK_EVERY_MS);
  }

  #set(state: UpdateState): void {
    this.#state = state;
    this.#emit();
  }

  #emit(): void {
    const status = this.status();
    for (const listener of this.#listeners) listener(status);
  }
}
