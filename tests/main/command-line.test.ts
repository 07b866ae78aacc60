import { describe, expect, it } from 'vitest';
import { cliArguments, runsWithoutSandbox } from '../../src/main/command-line';

// The packaged executable is both programs: `scriptorium <command>` is the CLI, `scriptorium` alone
// (a menu entry, the Dock, a .desktop file's Exec line) opens the app.

const EXECUTABLE = '/opt/Scriptorium/scriptorium';

describe('what the command line asks of the packaged app', () => {
  it('is the CLI when a command comes first, with every argument passed on', () => {
    expect(cliArguments([EXECUTABLE, 'sync', '--all'], false)).toEqual(['sync', '--all']);
    expect(cliArguments([EXECUTABLE, 'jobs', '--json'], false)).toEqual(['jobs', '--json']);
    // A mistyped command is the CLI's to refuse, with its usage error and exit 2.
    expect(cliArguments([EXECUTABLE, 'exprot', 'PL1'], false)).toEqual(['exprot', 'PL1']);
  });

  it("is the CLI for the program's own --version and --help", () => {
    for (const option of ['--version', '-V', '--help', '-h']) {
      expect(cliArguments([EXECUTABLE, option], false)).toEqual([option]);
    }
  });

  it('opens the app without arguments, or when a switch for Electron or Chromium comes first', () => {
    expect(cliArguments([EXECUTABLE], false)).toBeUndefined();
    // The AppImage's desktop entry starts it with --no-sandbox; older macOS passed -psn_0_… from Finder.
    expect(cliArguments([EXECUTABLE, '--no-sandbox'], false)).toBeUndefined();
    expect(
      cliArguments(['/Applications/Scriptorium.app/Contents/MacOS/Scriptorium', '-psn_0_1234'], false),
    ).toBeUndefined();
    expect(cliArguments([EXECUTABLE, '--enable-features=UseOzonePlatform', 'jobs'], false)).toBeUndefined();
  });

  it("skips the --no-sandbox an AppImage's launcher puts first: the command after it is the CLI", () => {
    expect(cliArguments([EXECUTABLE, '--no-sandbox', 'sync', '--all'], false)).toEqual(['sync', '--all']);
    expect(cliArguments([EXECUTABLE, '--no-sandbox', '--version'], false)).toEqual(['--version']);
    expect(cliArguments([EXECUTABLE, '--no-sandbox', '--enable-logging'], false)).toBeUndefined();
  });

  it('knows when Chromium runs without its sandbox: the switch anywhere, or ELECTRON_DISABLE_SANDBOX', () => {
    expect(runsWithoutSandbox([EXECUTABLE], {})).toBe(false);
    expect(runsWithoutSandbox([EXECUTABLE, '--no-sandbox'], {})).toBe(true);
    expect(runsWithoutSandbox([EXECUTABLE, '--enable-logging', '--no-sandbox'], {})).toBe(true);
    expect(runsWithoutSandbox([EXECUTABLE], { ELECTRON_DISABLE_SANDBOX: '1' })).toBe(true);
  });

  it('skips the folder Electron was given when it runs a checkout (npm start)', () => {
    expect(
      cliArguments(['/checkout/node_modules/electron/dist/electron', '/checkout'], true),
    ).toBeUndefined();
    expect(
      cliArguments(['/checkout/node_modules/electron/dist/electron', '/checkout', 'jobs'], true),
    ).toEqual(['jobs']);
  });
});
