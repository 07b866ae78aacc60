import { execFile } from 'node:child_process';
import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../support/cli';

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Shared, read-only: the sources, the installed packages and the build configuration. */
const LINKED = [
  'src',
  'node_modules',
  'package.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
  'electron.vite.config.ts',
  'vite.cli.config.ts',
];
/** Copied, because Node resolves a script's own imports from its real path. */
const COPIED = ['bin', 'scripts'];

/**
 * A folder that is this checkout for every purpose but its own build output: tests that build or
 * start the app work there, so they never rewrite the out/ that other test files are reading.
 */
export function scratchProject(): string {
  const dir = tempDir('scriptorium-project-');
  for (const name of LINKED) symlinkSync(join(ROOT, name), join(dir, name));
  for (const name of COPIED) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  return dir;
}

/** Builds main, preload and renderer into the project's out/, as `npx electron-vite build` does. */
export async function buildDesktop(project: string): Promise<void> {
  await run(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], {
    cwd: project,
    timeout: 60_000,
  });
}
