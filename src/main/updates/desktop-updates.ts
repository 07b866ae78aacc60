import { app } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { noUpdates, type ScriptoriumApp, type Updates } from '../../core/app';
import { JOB_STATUS } from '../../shared/vocabulary';
import { AppUpdates } from './app-updates';
import { installationOf, isPackageOf, releasePage } from './installation';
import { updaterFor } from './updater';

/**
 * The desktop app's updates: electron-updater's updater for this package, decided on by AppUpdates,
 * or what says this copy does not update itself. `watch` tells it which jobs run, from the app's
 * events, and Settings' "Check for updates", and starts its looking by itself.
 */
export function desktopUpdates(): {
  updates: Updates;
  watch(scriptorium: ScriptoriumApp): Promise<void>;
} {
  const installation = installationOf({
    isPackaged: app.isPackaged,
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    appImage: process.env['APPIMAGE'],
    appPackage: JSON.parse(readFileSync(join(app.getAppPath(), 'package.json'), 'utf8')) as {
      macUpdates?: unknown;
    },
  });
  if ('unsupported' in installation)
    return { updates: noUpdates(installation.unsupported), watch: async () => undefined };

  const running = new Set<number>();
  const updates = new AppUpdates({
    updater: updaterFor(installation.kind),
    current: app.getVersion(),
    offer: installation.offer,
    isOwnPackage: isPackageOf(installation.kind, process.arch),
    releaseUrl: (version) => releasePage(installation.repository, version),
    jobRunning: () => running.size > 0,
    checking: true,
    after: (ms, work) => {
      const timer = setTimeout(work, ms);
      timer.unref();
      return () => clearTimeout(timer);
    },
    now: () => new Date(),
  });
  return {
    updates,
    async watch(scriptorium) {
      const note = (jobId: number, isRunning: boolean) => {
        const changed = isRunning ? !running.has(jobId) : running.delete(jobId);
        if (isRunning) running.add(jobId);
        if (changed) updates.jobsChanged();
      };
      scriptorium.on('jobChanged', (job) => note(job.id, job.status === JOB_STATUS.running));
      scriptorium.on('jobRemoved', ({ jobId }) => note(jobId, false));
      for (const job of await scriptorium.handlers.listJobs({}))
        note(job.id, job.status === JOB_STATUS.running);
      updates.checkingChanged((await scriptorium.handlers.getSettings({})).updates.check);
      updates.start();
    },
  };
}
