import type { AppContext, DomainHandlers } from './context';

/** Updates of the desktop app (shared/contract/updates.ts), answered by the face's updater. */
export function updateHandlers(
  ctx: AppContext,
): DomainHandlers<'updateStatus' | 'checkForUpdates' | 'downloadUpdate' | 'installUpdate'> {
  return {
    updateStatus: async () => ctx.updates.status(),
    checkForUpdates: () => ctx.updates.check(),
    downloadUpdate: () => ctx.updates.download(),
    installUpdate: () => ctx.updates.install(),
  };
}
