import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Marks, in the data folder, that the user was told the app runs without the sandbox. */
export const SANDBOX_NOTICE_FILE = 'sandbox-notice-shown';

const NOTICE =
  "Scriptorium is running without Chromium's sandbox: this system does not let the AppImage create the user namespaces the sandbox needs (Ubuntu 24.04 and later allow them only to programs an AppArmor profile names). The deb or the rpm installs such a profile, and the app then runs sandboxed.";

export interface SandboxNoticeHost {
  /** The app's data folder, where the notice is marked as shown. */
  userData: string;
  /** Shows the notice to the user (a message box), once. */
  show(title: string, message: string): void;
  /** Writes a line to the log (stderr), at every start without the sandbox. */
  log(line: string): void;
}

/**
 * The app never runs without the sandbox silently (docs/product.md, Packages): a line on stderr at
 * every such start, and a message box the first time.
 */
export function sayRunningWithoutSandbox(host: SandboxNoticeHost): void {
  host.log(`Scriptorium: ${NOTICE}`);
  const marker = join(host.userData, SANDBOX_NOTICE_FILE);
  if (existsSync(marker)) return;
  host.show('Scriptorium runs without the sandbox', NOTICE);
  try {
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  } catch {
    // Not remembered: the notice shows again at the next start, which does no harm.
  }
}
