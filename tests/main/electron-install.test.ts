import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { electronBindingFile } from '../../src/main/native-binding';
import { scratchProject } from './scratch-project';

const run = promisify(execFile);
let project: string;
const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

beforeAll(() => {
  project = scratchProject();
});

async function dryRun(env: Record<string, string> = {}): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['scripts/electron-install.mjs', '--dry-run'], {
    cwd: project,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
  });
  return stdout.trim().split('\n');
}

describe('npm run electron:install', () => {
  it("plans to fetch Electron and build better-sqlite3 against Electron's headers, in a copy of its own", async () => {
    const electron = versionOf('electron');
    const sqlite = versionOf('better-sqlite3');
    const before = readdirSync(project).sort();
    const plan = await dryRun({ ELECTRON_OVERRIDE_DIST_PATH: join(project, 'no-electron-here') });
    const work = `node_modules/.scriptorium-electron/work/better-sqlite3-v${sqlite}`;

    expect(plan[0]).toBe(`Electron ${electron}, better-sqlite3 ${sqlite}`);
    expect(plan[1]).toBe('fetch the Electron binary: node node_modules/electron/install.js');
    expect(plan[2]).toBe(`copy node_modules/better-sqlite3 (without its build) to ${work}`);
    const [prebuilt, compile] = plan.slice(3, 5);
    expect(prebuilt).toMatch(
      new RegExp(
        `^download the prebuilt better-sqlite3 for this Electron, in ${work}: node \\S+prebuild-install/bin.js`,
      ),
    );
    expect(prebuilt).toContain(`--runtime=electron --target=${electron} --arch=${process.arch}`);
    expect(compile).toMatch(
      new RegExp(
        `^else compile better-sqlite3 against Electron's headers, in ${work}: node \\S+node-gyp/bin/node-gyp.js rebuild --release`,
      ),
    );
    expect(compile).toContain(
      `--runtime=electron --target=${electron} --arch=${process.arch} --dist-url=https://electronjs.org/headers`,
    );
    // The result is the file the main process looks for; the CLI's build is never a target.
    const output = electronBindingFile(project, electron, sqlite);
    expect(plan[5]).toBe(
      `move ${work}/build/Release/better_sqlite3.node to ${output.slice(project.length + 1)}`,
    );
    expect(plan).toHaveLength(6);
    expect(plan.join('\n')).not.toMatch(/node_modules\/better-sqlite3\/build/);
    // A dry run does nothing.
    expect(readdirSync(project).sort()).toEqual(before);
  });

  it("ignores npm's own build settings, which would build for Node instead", async () => {
    const plan = await dryRun({ npm_config_nodedir: '/usr', npm_config_target: '20.19.0' });
    expect(plan.filter((line) => line.startsWith('ignore '))).toEqual([
      'ignore npm_config_nodedir, an npm setting that would build for Node',
      'ignore npm_config_target, an npm setting that would build for Node',
    ]);
  });

  it('refuses an option it does not know', async () => {
    await expect(
      run(process.execPath, ['scripts/electron-install.mjs', '--dryrun'], { cwd: project }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: 'electron-install: unknown option --dryrun (options: --dry-run, --force)\n',
    });
  });
});
