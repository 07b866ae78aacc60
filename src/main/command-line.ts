// One command, two programs: the packaged app's executable (the deb's /usr/bin/scriptorium) is the
// CLI when given a command, and opens the window when given nothing (docs/product.md, Desktop).

/** The CLI program's own options, which may come first instead of a command. */
const CLI_OPTIONS = new Set(['--version', '-V', '--help', '-h']);

/**
 * The arguments given to the app's executable when they ask for the CLI: a word first (`sync`,
 * `jobs`..., or a mistyped one, which the CLI then refuses), or the program's own --version or
 * --help. Undefined when the window should open: no arguments, or a switch meant for Electron or
 * Chromium first (an AppImage's --no-sandbox, macOS's -psn_...). `defaultApp` is Electron run on a
 * folder (`electron .`, as `npm start` does), whose argv holds that folder after the executable.
 */
export function cliArguments(argv: readonly string[], defaultApp: boolean): string[] | undefined {
  const args = argv.slice(defaultApp ? 2 : 1);
  const first = args[0];
  if (first === undefined) return undefined;
  return !first.startsWith('-') || CLI_OPTIONS.has(first) ? args : undefined;
}
