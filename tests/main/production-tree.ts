import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './scratch-project';

// The packages the app runs with, read from package-lock.json: what package.json's dependencies
// reach, as Node resolves each require (the nearest node_modules first).

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const lock = (
  JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }
).packages;

/** Where Node finds `name` required from the package at `from` (a path of the lock). */
function resolveFrom(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (lock[candidate] !== undefined) return candidate;
    if (dir === '') return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

/** The name of the package at a path of the lock (node_modules/a/node_modules/@s/b: @s/b). */
const nameOf = (path: string): string =>
  path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/**
 * The names of the packages package.json's dependencies reach; a package named in `notThrough` and
 * what only it reaches are left out.
 */
export function reachedPackages(notThrough: string[] = []): Set<string> {
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const seen = new Set<string>();
  const pending = Object.keys(dependencies).map((name) => `node_modules/${name}`);
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (seen.has(path) || notThrough.includes(nameOf(path))) continue;
    seen.add(path);
    const entry = lock[path]!;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolveFrom(path, name);
      if (found !== undefined) pending.push(found);
    }
  }
  return new Set([...seen].map(nameOf));
}
