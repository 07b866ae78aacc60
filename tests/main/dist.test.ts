import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli';
import { ROOT } from './scratch-project';

// scripts/dist.mjs run as `npm run dist` runs it, in a project of its own whose electron-vite and
// electron-builder are stand-ins (the real rebuild needs Electron's headers, which cannot be fetched
// here): each stand-in does to node_modules/better-sqlite3/build what a rebuild does, or fails as
// node-gyp fails, and writes down what it was given.

const BUILD = 'node_modules/better-sqlite3/build';
const SAW = 'builder-saw.json';

/** What electron-builder's stand-in writes down: its arguments, npm's settings, the build folder it found. */
interface BuilderSaw {
  args: string[];
  env: Record<string, string>;
  markerAtStart: boolean;
}

const RECORD = `
const fs = require('node:fs');
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^(npm_config_|CSC_|WIN_CSC_|APPLE_)/i.test(name)));
fs.writeFileSync('${SAW}', JSON.stringify({
  args: process.argv.slice(2),
  env,
  markerAtStart: fs.existsSync('${BUILD}/Release/.forge-meta'),
}));
`;

/** As @electron/rebuild (after RECORD, which names node:fs `fs`): the addon built for Electron, its marker, and more objects. */
const REBUILD = `
fs.mkdirSync('${BUILD}/Release/obj.target', { recursive: true });
fs.writeFileSync('${BUILD}/Release/better_sqlite3.node', 'built for Electron');
fs.writeFileSync('${BUILD}/Release/.forge-meta', 'linux--x64--150');
fs.writeFileSync('${BUILD}/Release/obj.target/electron.o', 'object for Electron');
`;

const BUILDERS = {
  succeeds: `${RECORD}${REBUILD}console.log('• packaging done');`,
  // node-gyp removes build/ before it compiles; then the compile fails.
  fails: `${RECORD}
fs.rmSync('${BUILD}', { recursive: true, force: true });
console.error("⨯ node-gyp failed to rebuild '/project/node_modules/better-sqlite3': gyp ERR! not ok");
process.exit(1);`,
  // Rebuilds, then works until a signal stops it (SIGINT and SIGTERM as Node's default: death).
  works: `${RECORD}${REBUILD}console.log('packaging'); setInterval(() => undefined, 1000);`,
} as const;

const cleanups: string[] = [];
/** The process groups of the runs: one a failed test left behind is stopped with its stand-ins. */
const groups: number[] = [];
afterEach(() => {
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // The group has ended.
    }
  }
  for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** A project with this checkout's scripts, stand-ins for the two tools, and a CLI build of better-sqlite3. */
function project(builder: keyof typeof BUILDERS, { viteExit = 0 } = {}): { dir: string; tmp: string } {
  const dir = tempDir('scriptorium-dist-project-');
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  cleanups.push(dir);
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
  write(join(dir, 'node_modules/electron-vite/bin/electron-vite.js'), `process.exit(${viteExit});`);
  write(join(dir, 'node_modules/electron-builder/cli.js'), BUILDERS[builder]);
  write(join(dir, BUILD, 'Release/better_sqlite3.node'), 'built for Node');
  chmodSync(join(dir, BUILD, 'Release/better_sqlite3.node'), 0o755);
  write(join(dir, BUILD, 'Release/obj.target/better_sqlite3/src/better_sqlite3.o'), 'object for Node');
  write(join(dir, BUILD, 'Release/.deps/Release/better_sqlite3.node.d'), 'dependencies');
  write(join(dir, BUILD, 'config.gypi'), '{ "nodedir": "/usr" }');
  write(join(dir, BUILD, 'Makefile'), 'all:');
  return { dir, tmp };
}

/** Every file and folder under `dir`, with its mode, time and a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((name) => {
        const path = join(dir, name);
        const stat = statSync(path);
        const bytes = stat.isFile()
          ? createHash('sha256').update(readFileSync(path)).digest('hex')
          : 'folder';
        return [name, `${stat.mode.toString(8)} ${stat.mtimeMs} ${bytes}`];
      }),
  );
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  saw: BuilderSaw | undefined;
}

/**
 * Runs `node scripts/dist.mjs args` in the project, in a process group of its own (so that a test can
 * signal the group as a terminal's Ctrl+C does), with TMPDIR in the project; `whilePackaging` runs
 * once the builder says it is packaging.
 */
function dist(
  { dir, tmp }: { dir: string; tmp: string },
  args: string[] = [],
  env: Record<string, string> = {},
  whilePackaging?: (pid: number) => void,
): Promise<Run> {
  const child = spawn(process.execPath, ['scripts/dist.mjs', ...args], {
    cwd: dir,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: tmp, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (whilePackaging && stdout.includes('packaging\n')) {
      const signal = whilePackaging;
      whilePackaging = undefined;
      signal(child.pid!);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        saw: existsSync(join(dir, SAW))
          ? (JSON.parse(readFileSync(join(dir, SAW), 'utf8')) as BuilderSaw)
          : undefined,
      }),
    ),
  );
}

/** The CLI's build came back exactly, and nothing of the packaging is left anywhere. */
function expectPutBack(dir: string, tmp: string, before: Record<string, string>): void {
  expect(snapshot(join(dir, BUILD))).toEqual(before);
  expect(readFileSync(join(dir, BUILD, 'Release/better_sqlite3.node'), 'utf8')).toBe('built for Node');
  expect(readdirSync(tmp)).toEqual([]);
  expect(readdirSync(join(dir, 'node_modules')).sort()).toEqual([
    'better-sqlite3',
    'electron-builder',
    'electron-vite',
  ]);
}

describe('npm run dist keeps the CLI working', () => {
  it("puts the CLI's whole better-sqlite3 build back after packaging rebuilt it for Electron, marker and objects included", async () => {
    const app = project('succeeds');
    const before = snapshot(join(app.dir, BUILD));
    const run = await dist(app, ['--linux', '--dir']);
    expect(run.code).toBe(0);
    expect(run.saw?.args).toEqual(['--linux', '--dir']);
    expectPutBack(app.dir, app.tmp, before);
  });

  it("never passes npm's settings that aim a rebuild at Node on to electron-builder", async () => {
    const app = project('succeeds');
    const run = await dist(app, ['--linux'], {
      npm_config_nodedir: '/usr',
      npm_config_target: '20.19.0',
      npm_config_runtime: 'node',
      npm_config_disturl: 'https://nodejs.org/dist',
      NPM_CONFIG_DIST_URL: 'https://nodejs.org/dist',
      npm_config_arch: 'x64',
      npm_config_cache: '/tmp/npm-cache',
      CSC_LINK: '/secrets/signing.p12',
    });
    expect(run.code).toBe(0);
    expect(run.saw?.env).toEqual({ npm_config_cache: '/tmp/npm-cache', CSC_LINK: '/secrets/signing.p12' });
  });

  it('lets the rebuild start afresh, whatever marker an earlier packaging left claiming Electron', async () => {
    const app = project('succeeds');
    write(join(app.dir, BUILD, 'Release/.forge-meta'), 'linux--x64--150');
    const before = snapshot(join(app.dir, BUILD));
    const run = await dist(app, ['--linux']);
    expect(run.code).toBe(0);
    expect(run.saw?.markerAtStart).toBe(false);
    expectPutBack(app.dir, app.tmp, before);
  });

  it("shows electron-builder's own error when the rebuild fails, and puts the build back that node-gyp removed", async () => {
    const app = project('fails');
    const before = snapshot(join(app.dir, BUILD));
    const run = await dist(app, ['--linux']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("⨯ node-gyp failed to rebuild '/project/node_modules/better-sqlite3'");
    expect(run.stderr).not.toMatch(/ENOENT|at .*dist\.mjs/);
    expectPutBack(app.dir, app.tmp, before);
  });

  it('puts the build back when Ctrl+C interrupts the packaging, and exits 130', async () => {
    const app = project('works');
    const before = snapshot(join(app.dir, BUILD));
    // A terminal's Ctrl+C signals the whole foreground process group: dist and electron-builder.
    const run = await dist(app, ['--linux'], {}, (pid) => process.kill(-pid, 'SIGINT'));
    expect(run.code).toBe(130);
    expectPutBack(app.dir, app.tmp, before);
  });

  it('passes a SIGTERM on to electron-builder, puts the build back and exits 143', async () => {
    const app = project('works');
    const before = snapshot(join(app.dir, BUILD));
    const run = await dist(app, ['--linux'], {}, (pid) => process.kill(pid, 'SIGTERM'));
    expect(run.code).toBe(143);
    expectPutBack(app.dir, app.tmp, before);
  });

  it('first puts back the build that a dist killed outright left aside', async () => {
    const app = project('succeeds');
    const before = snapshot(join(app.dir, BUILD));
    // What SIGKILL leaves: the CLI's build aside, and electron-builder's in its place.
    mkdirSync(join(app.dir, 'node_modules/.scriptorium-dist'));
    renameSync(join(app.dir, BUILD), join(app.dir, 'node_modules/.scriptorium-dist/better-sqlite3-build'));
    write(join(app.dir, BUILD, 'Release/better_sqlite3.node'), 'built for Electron');
    const run = await dist(app, ['--linux']);
    expect(run.code).toBe(0);
    expect(run.saw?.markerAtStart).toBe(false);
    expectPutBack(app.dir, app.tmp, before);
  });

  it('stops before packaging, touching nothing, when the app does not build', async () => {
    const app = project('succeeds', { viteExit: 3 });
    const before = snapshot(join(app.dir, BUILD));
    const run = await dist(app, ['--linux']);
    expect(run.code).toBe(3);
    expect(run.saw).toBeUndefined();
    expectPutBack(app.dir, app.tmp, before);
  });
});

describe('npm run dist signs when the environment holds an identity', () => {
  it('leaves an unsigned macOS app signed ad hoc, saying so in one line, when no identity is set', async () => {
    const app = project('succeeds');
    const run = await dist(app, ['--mac']);
    expect(run.code).toBe(0);
    expect(run.saw?.args).toEqual(['--mac', '-c.mac.identity=null']);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('macOS:'))).toEqual([
      'macOS: not signed and not notarised (no CSC_LINK or CSC_NAME): the app is signed ad hoc, and its first start must be allowed in System Settings, Privacy & Security.',
    ]);
  });

  it('signs with the identity CSC_LINK names and says, in one line, that notarising is skipped without its keys', async () => {
    const app = project('succeeds');
    const run = await dist(app, ['--mac'], { CSC_LINK: '/secrets/developer-id.p12', CSC_KEY_PASSWORD: 'pw' });
    expect(run.saw?.args).toEqual(['--mac']);
    expect(run.saw?.env).toMatchObject({ CSC_LINK: '/secrets/developer-id.p12' });
    expect(run.stdout.split('\n').filter((line) => line.startsWith('macOS:'))).toEqual([
      'macOS: signed but not notarised (set APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER, or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID).',
    ]);
  });

  it('says nothing of signing when macOS signing and notarising are both set', async () => {
    const app = project('succeeds');
    const run = await dist(app, ['--mac'], {
      CSC_NAME: 'Developer ID Application: Scriptorium',
      APPLE_API_KEY: '/secrets/key.p8',
      APPLE_API_KEY_ID: 'KEY',
      APPLE_API_ISSUER: 'ISSUER',
    });
    expect(run.saw?.args).toEqual(['--mac']);
    expect(run.stdout).not.toMatch(/^macOS:/m);
  });

  it('says in one line that a Windows installer without a certificate is unsigned', async () => {
    const app = project('succeeds');
    const unsigned = await dist(app, ['--win']);
    expect(unsigned.stdout.split('\n').filter((line) => line.startsWith('Windows:'))).toEqual([
      'Windows: not signed (no WIN_CSC_LINK or CSC_LINK): SmartScreen warns at the first start.',
    ]);
    const signed = await dist(app, ['--win'], { WIN_CSC_LINK: '/secrets/authenticode.pfx' });
    expect(signed.stdout).not.toMatch(/^Windows:/m);
  });
});
