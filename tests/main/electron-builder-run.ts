import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { ROOT } from './scratch-project';

// Running electron-builder's CLI on this checkout as `npm run dist` does, with what cannot run here
// replaced: a stand-in for the Electron binary (electron-stand-in/dist.ts), the addon taken from a
// folder of the test's instead of fetched by the beforePack hook, and a stand-in for fpm.

const require = createRequire(import.meta.url);

/** electron-builder's own YAML reader. */
export const yaml = createRequire(require.resolve('app-builder-lib/package.json'))('js-yaml') as {
  load(text: string): unknown;
};

export interface BuilderRun {
  code: number | null;
  output: string;
}

/** Runs electron-builder's CLI on this checkout; resolves its exit code and what it printed. */
export function electronBuilder(args: string[], env: Record<string, string> = {}): Promise<BuilderRun> {
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/electron-builder/cli.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/**
 * electron-builder.yml as it is but for what cannot run here: the stand-in Electron, the output in
 * `work`/`name`, and the addon taken from `addons` instead of being fetched by the beforePack hook
 * (only its `from` changes). Written whole rather than extending the yml, whose lists
 * electron-builder would add to instead of replacing. Returns the file's path.
 */
export function configFile(
  work: string,
  name: string,
  electronDist: string,
  addons: string,
  overrides: object = {},
): string {
  const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<
    string,
    unknown
  > & { extraResources: Array<{ from: string }> };
  const [addon, ...others] = config.extraResources;
  if (addon === undefined || others.length > 0)
    throw new Error('electron-builder.yml: one extraResources entry');
  const file = join(work, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      ...config,
      beforePack: null,
      extraResources: [{ ...addon, from: join(addons, basename(addon.from)) }],
      electronDist,
      directories: { ...(config['directories'] as object), output: join(work, name) },
      ...overrides,
    }),
  );
  return file;
}

/** What fpm was given for one package: its arguments and its two scripts, as electron-builder wrote them. */
export interface FpmCall {
  args: string[];
  afterInstall: string;
  afterRemove: string;
}

/**
 * A stand-in for fpm in `dir` (electron-builder runs the system's with USE_SYSTEM_FPM): it writes
 * what it was given to `<target>.json` beside it (deb, rpm) and makes an empty package.
 */
export function fpmStandIn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'fpm'),
    `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const script = (option) => fs.readFileSync(args[args.indexOf(option) + 1], 'utf8');
const target = args[args.indexOf('-t') + 1];
fs.writeFileSync(path.join(${JSON.stringify(dir)}, target + '.json'),
  JSON.stringify({ args, afterInstall: script('--after-install'), afterRemove: script('--after-remove') }));
fs.writeFileSync(args[args.indexOf('--package') + 1], '');
`,
  );
  chmodSync(join(dir, 'fpm'), 0o755);
  return dir;
}

/** What the stand-in for fpm in `dir` was given for `target`. */
export function fpmCall(dir: string, target: 'deb' | 'rpm'): FpmCall {
  return JSON.parse(readFileSync(join(dir, `${target}.json`), 'utf8')) as FpmCall;
}
