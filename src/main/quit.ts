/** The slice of Electron's app the quit sequence needs. */
export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): void;
  quit(): void;
}

/**
 * Holds the first quit until `close` has run: the engine stops taking jobs and lets the running one
 * drain (it stays queued and continues at the next start), and the database closes cleanly. Then the
 * quit goes on. `onClosing` runs at once, to hide the windows while the work drains.
 */
export function closeBeforeQuit(
  app: QuittingApp,
  close: () => Promise<void>,
  onClosing: () => void,
  logger: Pick<Console, 'error'> = console,
): void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    onClosing();
    close()
      .catch((error: unknown) => logger.error('Scriptorium could not close cleanly:', error))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}
