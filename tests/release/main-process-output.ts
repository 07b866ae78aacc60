/**
 * What the installed app's main process wrote on stderr that is not Chromium's own logging
 * ("[pid:tid/time:LEVEL:file(line)] ...", which the app never writes) nor the inspector's banner
 * (Playwright drives the main process through it): the app's own warnings and errors, Node's
 * warnings, uncaught errors. The release test fails on any of them, since the main process only
 * logs some failures (a checkpoint worker that cannot start, a window place not remembered).
 */
export function mainProcessProblems(stderr: string): string[] {
  const chromium = /^\[\d+:\d+\/[\d.]+:(INFO|WARNING|ERROR|VERBOSE\d*):[^\]]+\]/;
  const inspector =
    /^(Debugger listening on ws:|For help, see: https:\/\/nodejs\.org\/en\/docs\/inspector|Debugger attached\.)/;
  return stderr
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .filter((line) => !chromium.test(line) && !inspector.test(line));
}
