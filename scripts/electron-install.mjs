#!/usr/bin/env node
// `npm run electron:install [-- --dry-run] [-- --force]`: makes this checkout able to run the desktop
// app beside the CLI. It fetches the Electron binary, and builds better-sqlite3 for Electron's ABI into
// a folder of its own (node_modules/.scriptorium-electron), from a copy of the package: the build in
// node_modules/better-sqlite3, which the CLI loads on Node, is never touched. The main process loads
// the Electron build through better-sqlite3's nativeBinding option (src/main/native-binding.ts).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ELECTRON_HEADERS = 'https://electronjs.org/headers';

/** Where the Electron build goes; src/main/native-binding.ts electronBindingFile names it the same. */
export function electronBindingFile(root, electronVersion, sqliteVersion) {
  return join(
    root,
    'node_modules',
    '.scriptorium-electron',
    `better_sqlite3-v${sqliteVersion}-electron-v${electronVersion}.node`,
  );
}

/**
 * The Electron executable, found as the electron package finds it (path.txt, or the folder named by
 * ELECTRON_OVERRIDE_DIST_PATH); undefined when the binary is not there.
 */
export function electronExecutable(root, env = process.env) {
  const packageDir = join(root, 'node_modules', 'electron');
  let executable;
  try {
    executable = readFileSync(join(packageDir, 'path.txt'), 'utf8');
  } catch {
    executable = undefined;
  }
  const dist = env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDir, 'dist');
  const path = join(dist, executable ?? 'electron');
  return (executable !== undefined || env.ELECTRON_OVERRIDE_DIST_PATH) && existsSync(path) ? path : undefined;
}

/**
 * Why this Node.js cannot run the desktop app's tools, or undefined when it can (or the checkout has
 * no Electron package to ask). Electron's package states the Node.js it needs (`engines`, a minimum:
 * `>= 22.12.0`), which @electron/get, @electron/rebuild and node-abi also ask for; the CLI and the
 * tests need only package.json's own engines.
 */
export function desktopNodeProblem(root, nodeVersion = process.versions.node) {
  let range;
  try {
    range = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).engines
      ?.node;
  } catch {
    return undefined;
  }
  const minimum = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range?.trim() ?? '');
  if (minimum === null) return undefined;
  const wanted = minimum.slice(1).map(Number);
  const have = nodeVersion.split('.').map(Number);
  const older = wanted.findIndex((part, at) => part !== have[at]);
  if (older < 0 || have[older] > wanted[older]) return undefined;
  return `the desktop app's tools need Node.js ${wanted.join('.')} or newer, as Electron's packages ask (this is Node.js ${nodeVersion}); the CLI, browser mode and the tests run on this one`;
}

/**
 * What has to be done, as commands and paths, without doing any of it: `fetchElectron` and
 * `buildSqlite` are null when already done.
 */
export function electronInstallPlan(root = PROJECT_ROOT, { force = false, env = process.env } = {}) {
  const electronVersion = packageVersion(join(root, 'node_modules', 'electron'));
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
  const sqliteVersion = packageVersion(sqliteDir);
  const output = electronBindingFile(root, electronVersion, sqliteVersion);
  const workDir = join(
    root,
    'node_modules',
    '.scriptorium-electron',
    'work',
    `better-sqlite3-v${sqliteVersion}`,
  );
  return {
    root,
    electronVersion,
    sqliteVersion,
    output,
    fetchElectron: electronExecutable(root, env)
      ? null
      : {
          command: process.execPath,
          args: [join(root, 'node_modules', 'electron', 'install.js')],
          cwd: root,
        },
    buildSqlite:
      existsSync(output) && !force
        ? null
        : sqliteBuild(root, {
            electronVersion,
            platform: process.platform,
            arch: process.arch,
            workDir,
            env,
          }),
  };
}

/**
 * How to get better-sqlite3 built for Electron `electronVersion` on `platform` and `arch`, in a copy
 * of the package in `workDir` (node_modules/better-sqlite3 itself is never touched): its own install
 * steps, a prebuilt binary when one is published, else a compile (only for this computer's system,
 * whose compiler can also build for its other architectures, as macOS's does).
 */
export function sqliteBuild(root, { electronVersion, platform, arch, workDir, env = process.env }) {
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
  const fromSqlite = createRequire(join(sqliteDir, 'package.json'));
  const target = [`--target=${electronVersion}`, `--arch=${arch}`];
  const attempts = [
    {
      what: 'download the prebuilt better-sqlite3 for this Electron',
      command: process.execPath,
      args: [
        fromSqlite.resolve('prebuild-install/bin.js'),
        '--runtime=electron',
        ...target,
        ...(platform === process.platform ? [] : [`--platform=${platform}`]),
      ],
      cwd: workDir,
    },
  ];
  if (platform === process.platform) {
    attempts.push({
      what: "compile better-sqlite3 against Electron's headers",
      command: process.execPath,
      args: [
        nodeGyp(root, env),
        'rebuild',
        '--release',
        '--runtime=electron',
        ...target,
        `--dist-url=${ELECTRON_HEADERS}`,
      ],
      cwd: workDir,
    });
  }
  return {
    copyFrom: sqliteDir,
    workDir,
    ignored: npmBuildSettings(env),
    env: withoutNpmBuildSettings(env),
    attempts,
    built: join(workDir, 'build', 'Release', 'better_sqlite3.node'),
  };
}

/** The plan in words, one step a line, paths relative to the project. */
export function describePlan(plan) {
  const show = (path) => relative(plan.root, path) || '.';
  const commandLine = ({ command, args }) =>
    [
      command === process.execPath ? 'node' : command,
      ...args.map((arg) => (arg.startsWith(plan.root) ? show(arg) : arg)),
    ].join(' ');
  const lines = [`Electron ${plan.electronVersion}, better-sqlite3 ${plan.sqliteVersion}`];
  lines.push(
    plan.fetchElectron
      ? `fetch the Electron binary: ${commandLine(plan.fetchElectron)}`
      : 'the Electron binary is there',
  );
  if (plan.buildSqlite === null) {
    lines.push(`better-sqlite3 for Electron is there: ${show(plan.output)}`);
    return lines;
  }
  const { copyFrom, workDir, attempts, built, ignored } = plan.buildSqlite;
  lines.push(`copy ${show(copyFrom)} (without its build) to ${show(workDir)}`);
  for (const name of ignored) lines.push(`ignore ${name}, an npm setting that would build for Node`);
  attempts.forEach((attempt, index) =>
    lines.push(
      `${index === 0 ? '' : 'else '}${attempt.what}, in ${show(attempt.cwd)}: ${commandLine(attempt)}`,
    ),
  );
  lines.push(`move ${show(built)} to ${show(plan.output)}`);
  return lines;
}

/** What a failed download said, when it points at the network rather than at Scriptorium. */
const NETWORK_FAILURE =
  /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up|proxy|certificate|self[- ]signed/i;

/** Fetches the Electron binary; throws an Error saying why, and what to do, in one line. */
export async function fetchElectron(plan, { quiet = false } = {}) {
  if (plan.fetchElectron === null) return;
  const failure = await run(plan.fetchElectron, { quiet });
  if (failure === undefined) return;
  const hint = NETWORK_FAILURE.test(failure)
    ? ': this computer seems to be offline, or needs a proxy (set HTTPS_PROXY) or a mirror (set ELECTRON_MIRROR) to reach it'
    : '';
  throw new Error(`could not download Electron ${plan.electronVersion} (${failure})${hint}`);
}

/**
 * Where `npm start` notes that setting up the desktop app failed, so that the next start does not
 * try the same download again without saying so; `npm run electron:install` tries again and, when it
 * succeeds, removes the note. In out/, the checkout's own build output.
 */
export function failedSetupFile(root = PROJECT_ROOT) {
  return join(root, 'out', 'desktop-setup-failed.json');
}

/** Builds better-sqlite3 for Electron into plan.output; throws an Error saying why in one line. */
export async function buildSqliteForElectron(plan, { quiet = false } = {}) {
  if (plan.buildSqlite === null) return;
  const { copyFrom, workDir, attempts, built, env } = plan.buildSqlite;
  const workRoot = dirname(workDir);
  rmSync(workRoot, { recursive: true, force: true });
  cpSync(copyFrom, workDir, { recursive: true, filter: (source) => source !== join(copyFrom, 'build') });
  try {
    let failure;
    for (const attempt of attempts) {
      failure = await run(attempt, { quiet, env });
      if (failure === undefined && existsSync(built)) break;
    }
    if (!existsSync(built)) {
      throw new Error(
        `could not build better-sqlite3 for Electron ${plan.electronVersion} (${failure ?? 'no addon was produced'}): it needs the network, or a C++ toolchain to compile`,
      );
    }
    mkdirSync(dirname(plan.output), { recursive: true });
    renameSync(built, plan.output);
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }
}

/**
 * npm passes its settings to scripts as npm_config_* variables, which node-gyp and prebuild-install
 * read: a `nodedir` (or target, runtime, dist-url, arch, platform) there would build for Node, or for
 * another system, instead.
 */
const BUILD_SETTINGS = new Set(['nodedir', 'target', 'runtime', 'disturl', 'dist_url', 'arch', 'platform']);

function npmBuildSettings(env) {
  return Object.keys(env).filter(
    (name) =>
      name.toLowerCase().startsWith('npm_config_') && BUILD_SETTINGS.has(name.slice(11).toLowerCase()),
  );
}

/** `env` without npm's settings that would aim a native build at Node (scripts/dist.mjs uses it too). */
export function withoutNpmBuildSettings(env) {
  const ignored = npmBuildSettings(env);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !ignored.includes(name)));
}

function packageVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/** node-gyp from the project's packages, else the one npm carries. */
function nodeGyp(root, env) {
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    if (env.npm_execpath)
      return join(dirname(env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    return 'node-gyp';
  }
}

/** Runs a step; resolves undefined on success, else the first line of what it said went wrong. */
function run({ command, args, cwd }, { quiet, env = process.env }) {
  return new Promise((resolve) => {
    let errors = '';
    const child = spawn(command, args, { cwd, env, stdio: quiet ? ['ignore', 'ignore', 'pipe'] : 'inherit' });
    child.stderr?.on('data', (chunk) => (errors += chunk.toString()));
    child.on('error', (error) => resolve(error.message));
    child.on('close', (code) => {
      if (code === 0) return resolve(undefined);
      const firstLine = errors
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line !== '');
      resolve(firstLine ?? `exit code ${code}`);
    });
  });
}

async function main(args) {
  const unknown = args.filter((arg) => arg !== '--dry-run' && arg !== '--force');
  if (unknown.length > 0) {
    console.error(`electron-install: unknown option ${unknown[0]} (options: --dry-run, --force)`);
    return 2;
  }
  const plan = electronInstallPlan(PROJECT_ROOT, { force: args.includes('--force') });
  if (args.includes('--dry-run')) {
    console.log(describePlan(plan).join('\n'));
    return 0;
  }
  const tooOld = desktopNodeProblem(PROJECT_ROOT);
  if (tooOld !== undefined) {
    console.error(`electron-install: ${tooOld}.`);
    return 2;
  }
  try {
    await fetchElectron(plan);
    await buildSqliteForElectron(plan);
  } catch (error) {
    console.error(`electron-install: ${error.message}.`);
    return 1;
  }
  rmSync(failedSetupFile(), { force: true });
  console.log(
    `Electron ${plan.electronVersion} is ready, with better-sqlite3 built for it: npm start opens the app.`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
