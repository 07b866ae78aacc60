// One command, two programs: the packaged app's executable (the deb's /usr/bin/scriptorium) is the
// CLI when given a command, and opens the window when given nothing (docs/product.md, Desktop).

/** The CLI program's own options, which may come first instead of a command. */
const CLI_OPTIONS = new Set(['--version', '-V', '--help', '-h']);

/**
 * Chromium's switch that starts it without its sandbox. An AppImage's launcher (electron-builder's
 * AppRun) puts it before the user's arguments on a system that does not let it create the user
 * namespaces the sandbox needs: Ubuntu 24.04 and later, containers.
 */
export const NO_SANDBOX = '--no-sandbox';

/**
 * The arguments given to the app's executable when they ask for the CLI: a word first (`sync`,
 * `jobs`..., or a mistyped one, which the CLI then refuses), or the program's own --version or
 * --help, after the --no-sandbox an AppImage's launcher may have put in front (the CLI starts no
 * Chromium process, so it needs no sandbox). Undefined when the window should open: no arguments,
 * or a switch meant for Electron or Chromium first (--no-sandbox alone, macOS's -psn_...).
 * `defaultApp` is Electron run on a folder (`electron .`, as `npm start` does), whose argv holds
 * that folder after the executable.
 */
export function cliArguments(argv: readonly string[], defaultApp: boolean): string[] | undefined {
  const given = argv.slice(defaultApp ? 2 : 1);
  const args = given[0] === NO_SANDBOX ? given.slice(1) : given;
  const first = args[0];
  if (first === undefined) return undefined;
  return !first.startsWith('-') || CLI_OPTIONS.has(first) ? args : undefined;
}

/** Whether Chromium was told to run without its sandbox: the switch, or Electron's variable. */
export function runsWithoutSandbox(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes(NO_SANDBOX) || (env['ELECTRON_DISABLE_SANDBOX'] ?? '') !== '';
}
