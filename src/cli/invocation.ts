import { existsSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { cliHost } from './host';

/**
 * How the user can run this very CLI again from where they are: the command its host names (the
 * packaged app's `scriptorium`); else `scriptorium` when that name on the PATH is this program
 * (after `npm link`), else its path (`./bin/scriptorium` in the project). Commands that Scriptorium
 * prints for the user to run (`jobs`) start with it.
 */
export function invocation(
  script: string | undefined = process.argv[1],
  path: string = process.env['PATH'] ?? '',
  cwd: string = process.cwd(),
): string {
  const named = cliHost().command;
  if (named !== undefined) return named;
  if (script === undefined) return 'scriptorium';
  const self = realpathOrNull(script);
  const onPath = path
    .split(delimiter)
    .filter((folder) => folder !== '')
    .map((folder) => join(folder, 'scriptorium'))
    .find((candidate) => existsSync(candidate));
  if (self !== null && onPath !== undefined && realpathOrNull(onPath) === self) return 'scriptorium';
  const fromHere = relative(cwd, script);
  if (fromHere.startsWith('..') || isAbsolute(fromHere)) return script;
  return fromHere.startsWith('.') ? fromHere : `./${fromHere}`;
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
