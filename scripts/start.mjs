#!/usr/bin/env node
// `npm start [-- options]`: opens the desktop app from this checkout. The first time, it fetches the
// Electron binary and builds better-sqlite3 for Electron (scripts/electron-install.mjs). Where that
// cannot work (no network, no compiler), it says so in one line and opens browser mode instead
// (`scriptorium ui`, which opens the browser), passing it the options given here (e.g. --no-open).
// A failed set-up is noted, and later starts go straight to browser mode saying so, until
// `npm run electron:install` succeeds.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  buildSqliteForElectron,
  electronExecutable,
  electronInstallPlan,
  failedSetupFile,
  fetchElectron,
  PROJECT_ROOT,
} from './electron-install.mjs';

const options = process.argv.slice(2);

try {
  const failedBefore = readFailedSetup();
  if (failedBefore !== undefined) {
    console.log(
      `Cannot open the desktop app: setting it up failed on ${failedBefore.at.slice(0, 10)} (${failedBefore.reason}). Opening browser mode instead; \`npm run electron:install\` tries again.`,
    );
    await openBrowserMode();
  } else {
    const unavailable = await prepareElectron().then(
      () => undefined,
      (error) => error,
    );
    if (unavailable === undefined) {
      await build(['node_modules/electron-vite/bin/electron-vite.js', 'build']);
      process.exitCode = await runElectron();
    } else {
      noteFailedSetup(unavailable.message);
      console.log(
        `Cannot open the desktop app: ${unavailable.message}. Opening browser mode instead; once that is fixed, \`npm run electron:install\` sets the desktop app up (npm start does not try again by itself).`,
      );
      await openBrowserMode();
    }
  }
} catch (error) {
  console.error(`npm start: ${error.message}.`);
  process.exitCode = 1;
}

async function prepareElectron() {
  const plan = electronInstallPlan(PROJECT_ROOT);
  if (plan.fetchElectron) console.log(`Fetching Electron ${plan.electronVersion} (first start only)...`);
  await fetchElectron(plan, { quiet: true });
  if (plan.buildSqlite) console.log('Building better-sqlite3 for Electron (first start only)...');
  await buildSqliteForElectron(plan, { quiet: true });
}

/** The note of an earlier failed set-up, or undefined when there is none. */
function readFailedSetup() {
  try {
    const note = JSON.parse(readFileSync(failedSetupFile(PROJECT_ROOT), 'utf8'));
    return typeof note.at === 'string' && typeof note.reason === 'string' ? note : undefined;
  } catch {
    return undefined;
  }
}

function noteFailedSetup(reason) {
  const file = failedSetupFile(PROJECT_ROOT);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), reason })}\n`);
}

/** The CLI's `ui`, in this process as bin/scriptorium runs it, on freshly built code. */
async function openBrowserMode() {
  await build(['node_modules/electron-vite/bin/electron-vite.js', 'build']);
  await build(['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.cli.config.ts']);
  const cli = join(PROJECT_ROOT, 'bin', 'scriptorium');
  process.argv = [process.argv[0], cli, 'ui', ...options];
  await import(pathToFileURL(join(PROJECT_ROOT, 'out', 'cli', 'index.js')).href);
}

/** Runs a build quietly; its output is shown only when it fails. */
function build(args) {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve();
      process.stderr.write(output);
      reject(new Error(`the build failed (node ${args.join(' ')})`));
    });
  });
}

/**
 * Electron on this checkout, until it quits. A terminal's Ctrl+C reaches Electron too, which quits
 * cleanly (running jobs continue at the next start); a SIGTERM sent to this script is passed on.
 */
function runElectron() {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(electronExecutable(PROJECT_ROOT), [PROJECT_ROOT, ...options], {
    stdio: 'inherit',
    env,
  });
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}
