#!/usr/bin/env node
// `npm run dist [-- electron-builder options]`: packages the desktop app with electron-builder.
//
// electron-builder rebuilds better-sqlite3 for Electron inside node_modules (npmRebuild in
// electron-builder.yml), and that is the very build the CLI and the tests load on Node. So the CLI's
// whole build folder (the addon, @electron/rebuild's .forge-meta marker, the objects) is moved aside
// first, packaging works on a copy, and the folder is moved back after: whether packaging succeeded,
// failed or was interrupted. The copy loses its marker, so that no marker left claiming Electron
// skips the rebuild. electron-builder speaks for itself; this script adds a line of its own when a
// signing identity is missing.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT, withoutNpmBuildSettings } from './electron-install.mjs';

const SQLITE_BUILD = join('node_modules', 'better-sqlite3', 'build');
/**
 * Where the CLI's build waits while packaging runs: beside node_modules' packages (so that it moves
 * by a rename and comes back as it was), in a folder electron-builder never packs. A dist killed
 * outright leaves it here, and the next dist puts it back before anything else.
 */
const KEPT_BUILD = join('node_modules', '.scriptorium-dist', 'better-sqlite3-build');
const REBUILD_MARKER = join('Release', '.forge-meta');

/** Exit codes of a shell for a process stopped by a signal. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 };

/** Moves the CLI's build aside (if there is one) and leaves packaging a copy without its marker. */
function keepBuildAside(root) {
  const build = join(root, SQLITE_BUILD);
  const kept = join(root, KEPT_BUILD);
  if (!existsSync(build)) return;
  mkdirSync(dirname(kept), { recursive: true });
  renameSync(build, kept);
  cpSync(kept, build, { recursive: true, verbatimSymlinks: true });
  rmSync(join(build, REBUILD_MARKER), { force: true });
}

/** Replaces whatever packaging left in the build folder with the CLI's build kept aside. */
function putBuildBack(root) {
  const build = join(root, SQLITE_BUILD);
  const kept = join(root, KEPT_BUILD);
  if (!existsSync(kept)) return;
  rmSync(build, { recursive: true, force: true });
  renameSync(kept, build);
  rmSync(dirname(kept), { recursive: true, force: true });
}

/** electron-builder's platforms in its own options (--mac, -w...), else the one this machine is. */
function platformsOf(args, host) {
  const named = {
    '--mac': 'darwin',
    '--macos': 'darwin',
    '-m': 'darwin',
    '-o': 'darwin',
    '--win': 'win32',
    '--windows': 'win32',
    '-w': 'win32',
    '--linux': 'linux',
    '-l': 'linux',
  };
  const platforms = new Set(args.map((arg) => named[arg]).filter((platform) => platform !== undefined));
  return platforms.size > 0 ? platforms : new Set([host]);
}

const has = (env, ...names) => names.every((name) => (env[name] ?? '') !== '');

/**
 * What electron-builder signs with comes from the environment, as it reads it itself: for macOS a
 * Developer ID in CSC_LINK (a .p12, with CSC_KEY_PASSWORD) or CSC_NAME (in the keychain) and
 * notarising keys; for Windows a certificate in WIN_CSC_LINK or CSC_LINK. Each one missing is said in
 * one line. An unsigned macOS app gets `mac.identity` null: no search of the keychain, and the ad-hoc
 * signature electronFuses resets.
 */
function signingPlan(args, env, host = process.platform) {
  const platforms = platformsOf(args, host);
  const lines = [];
  const overrides = [];
  if (platforms.has('darwin')) {
    const notarising =
      has(env, 'APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER') ||
      has(env, 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID') ||
      has(env, 'APPLE_KEYCHAIN_PROFILE');
    if (!has(env, 'CSC_LINK') && !has(env, 'CSC_NAME')) {
      overrides.push('-c.mac.identity=null');
      lines.push(
        'macOS: not signed and not notarised (no CSC_LINK or CSC_NAME): the app is signed ad hoc, and its first start must be allowed in System Settings, Privacy & Security.',
      );
    } else if (!notarising) {
      lines.push(
        'macOS: signed but not notarised (set APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER, or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID).',
      );
    }
  }
  if (platforms.has('win32') && !has(env, 'WIN_CSC_LINK') && !has(env, 'CSC_LINK')) {
    lines.push('Windows: not signed (no WIN_CSC_LINK or CSC_LINK): SmartScreen warns at the first start.');
  }
  return { lines, overrides };
}

/**
 * Runs a node script of the project until it ends; resolves its exit code. A Ctrl+C reaches the
 * script by itself (one process group), so it is only waited out; a SIGTERM sent to dist alone is
 * passed on. Either way the code is then the signal's.
 */
function runScript(root, script, args, env) {
  return new Promise((resolve) => {
    let stoppedBy;
    const child = spawn(process.execPath, [join(root, script), ...args], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
    const onInterrupt = () => (stoppedBy = 'SIGINT');
    const onTerminate = () => {
      stoppedBy = 'SIGTERM';
      child.kill('SIGTERM');
    };
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onTerminate);
    child.on('error', (error) => {
      console.error(`npm run dist: could not run ${script}: ${error.message}`);
    });
    child.on('close', (code) => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
      resolve(stoppedBy ? SIGNAL_EXIT[stoppedBy] : (code ?? 1));
    });
  });
}

/** The whole of `npm run dist`: the app's build, then electron-builder with the CLI's build kept aside. */
async function dist(root, args, env = process.env) {
  const built = await runScript(root, 'node_modules/electron-vite/bin/electron-vite.js', ['build'], env);
  if (built !== 0) return built;
  const { lines, overrides } = signingPlan(args, env);
  for (const line of lines) console.log(line);

  putBuildBack(root); // left aside by a dist that was killed outright
  try {
    keepBuildAside(root);
    return await runScript(
      root,
      'node_modules/electron-builder/cli.js',
      [...args, ...overrides],
      withoutNpmBuildSettings(env),
    );
  } finally {
    try {
      putBuildBack(root);
    } catch (error) {
      console.error(
        `npm run dist: could not put the CLI's better-sqlite3 build back (${error.message}): move ${KEPT_BUILD} to ${SQLITE_BUILD} yourself.`,
      );
      process.exitCode = 1;
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const code = await dist(PROJECT_ROOT, process.argv.slice(2));
    process.exitCode = process.exitCode || code;
  } catch (error) {
    // Moving the build aside failed (a full disk, say); what was moved is back already.
    console.error(`npm run dist: ${error.message}`);
    process.exitCode = 1;
  }
}
