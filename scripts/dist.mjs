#!/usr/bin/env node
// `npm run dist [-- electron-builder options]`: builds the app and packages it with electron-builder.
// Packaging touches nothing in node_modules (electron-builder.yml: npmRebuild off, and better-sqlite3
// for Electron fetched into a folder of its own), so the CLI keeps working throughout.
// electron-builder speaks for itself; this script says, one line a system, what will not be signed
// or notarised, refuses signing settings that cannot work, and passes Azure Trusted Signing's
// settings to electron-builder when they are in the environment.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { desktopNodeProblem, PROJECT_ROOT, withoutNpmBuildSettings } from './electron-install.mjs';

/** Exit codes of a shell for a process stopped by a signal. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 };

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
 * Azure Trusted Signing (electron-builder's win.azureSignOptions): the account, its certificate
 * profile, its endpoint and the publisher name the certificate carries; the Azure client's own
 * credentials (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET) are read by Azure's module.
 */
const AZURE_OPTIONS = {
  AZURE_SIGNING_ENDPOINT: 'endpoint',
  AZURE_SIGNING_ACCOUNT: 'codeSigningAccountName',
  AZURE_CERTIFICATE_PROFILE: 'certificateProfileName',
  AZURE_PUBLISHER_NAME: 'publisherName',
};
const AZURE_CREDENTIALS = ['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET'];

/**
 * macOS. The Developer ID comes from CSC_LINK (a .p12, with CSC_KEY_PASSWORD) or CSC_NAME (in the
 * keychain). Notarising takes an App Store Connect API key, whose APPLE_API_KEY is the path of the
 * .p8 file (@electron/notarize reads it as a path), or an Apple ID, or a keychain profile. An
 * unsigned app gets `mac.identity` null: no search of the keychain, and the ad-hoc signature the
 * fuses reset.
 */
function macPlan(env, plan) {
  if ((env.APPLE_API_KEY ?? '').includes('PRIVATE KEY')) {
    plan.refusals.push(
      'macOS: APPLE_API_KEY holds the key itself; it must be the path of the .p8 file (write the key to a file and set APPLE_API_KEY to its path).',
    );
  } else if (has(env, 'APPLE_API_KEY') && !existsSync(env.APPLE_API_KEY)) {
    plan.refusals.push(
      `macOS: APPLE_API_KEY names no file (${env.APPLE_API_KEY}); it must be the path of the .p8 file.`,
    );
  }
  const notarising =
    has(env, 'APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER') ||
    has(env, 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID') ||
    has(env, 'APPLE_KEYCHAIN_PROFILE');
  if (!has(env, 'CSC_LINK') && !has(env, 'CSC_NAME')) {
    // Squirrel.Mac installs only a signed app: this one says where the new release is instead.
    plan.overrides.push('-c.mac.identity=null', '-c.extraMetadata.macUpdates=download');
    plan.lines.push(
      'macOS: not signed and not notarised (no CSC_LINK or CSC_NAME): the app is signed ad hoc, and its first start must be allowed in System Settings, Privacy & Security.',
    );
  } else if (!notarising) {
    plan.lines.push(
      'macOS: signed but not notarised (set APPLE_API_KEY to the path of the .p8 key, APPLE_API_KEY_ID and APPLE_API_ISSUER, or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID).',
    );
  }
}

/**
 * Windows. A certificate in WIN_CSC_LINK (a .pfx, with WIN_CSC_KEY_PASSWORD), or Azure Trusted
 * Signing, where code-signing certificates are issued now. CSC_LINK is macOS's Developer ID here:
 * electron-builder would sign the installer with it when neither is set, so a build for Windows
 * alone does not pass it on.
 */
function windowsPlan(env, plan, { alsoMac }) {
  const azure = Object.keys(AZURE_OPTIONS).filter((name) => has(env, name));
  if (azure.length > 0) {
    const missing = [...Object.keys(AZURE_OPTIONS), ...AZURE_CREDENTIALS].filter((name) => !has(env, name));
    if (missing.length > 0) {
      plan.refusals.push(`Windows: Azure Trusted Signing needs ${missing.join(', ')} as well.`);
      return;
    }
    for (const [name, option] of Object.entries(AZURE_OPTIONS)) {
      plan.overrides.push(`-c.win.azureSignOptions.${option}=${env[name]}`);
    }
    return;
  }
  if (has(env, 'WIN_CSC_LINK')) return;
  if (!alsoMac) plan.withoutEnv.push('CSC_LINK', 'CSC_KEY_PASSWORD');
  plan.lines.push(
    `Windows: not signed (no WIN_CSC_LINK, nor AZURE_SIGNING_ENDPOINT and the rest of Azure Trusted Signing${has(env, 'CSC_LINK') ? "; CSC_LINK is macOS's certificate and is not used" : ''}): SmartScreen warns at the first start.`,
  );
}

/**
 * What signing will and will not happen, as electron-builder reads the environment: lines to say,
 * refusals (settings that cannot work), options to add, and variables not to pass on.
 */
export function signingPlan(args, env, host = process.platform) {
  const platforms = platformsOf(args, host);
  const plan = { lines: [], refusals: [], overrides: [], withoutEnv: [] };
  if (platforms.has('darwin')) macPlan(env, plan);
  if (platforms.has('win32')) windowsPlan(env, plan, { alsoMac: platforms.has('darwin') });
  return plan;
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

/** The whole of `npm run dist`: the app's build, then electron-builder. */
async function dist(root, args, env = process.env) {
  const tooOld = desktopNodeProblem(root);
  if (tooOld !== undefined) {
    console.error(`npm run dist: ${tooOld}. Nothing was packaged.`);
    return 2;
  }
  const { lines, refusals, overrides, withoutEnv } = signingPlan(args, env);
  if (refusals.length > 0) {
    for (const line of refusals) console.error(line);
    console.error('npm run dist: nothing was packaged.');
    return 2;
  }
  const built = await runScript(root, 'node_modules/electron-vite/bin/electron-vite.js', ['build'], env);
  if (built !== 0) return built;
  for (const line of lines) console.log(line);
  const builderEnv = withoutNpmBuildSettings(env);
  for (const name of withoutEnv) delete builderEnv[name];
  return runScript(root, 'node_modules/electron-builder/cli.js', [...args, ...overrides], builderEnv);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await dist(PROJECT_ROOT, process.argv.slice(2));
}
