import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli';
import { ROOT } from './scratch-project';

// scripts/dist.mjs run as `npm run dist` runs it, in a project of its own whose electron-vite and
// electron-builder are stand-ins that write down what they were given (the real ones need Electron
// and the network).

const SAW = 'builder-saw.json';

/** What electron-builder's stand-in writes down: its arguments, and the variables that matter. */
interface BuilderSaw {
  args: string[];
  env: Record<string, string>;
}

const RECORD = `
const fs = require('node:fs');
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^(npm_config_|CSC_|WIN_CSC_|APPLE_|AZURE_)/i.test(name)));
fs.writeFileSync('${SAW}', JSON.stringify({ args: process.argv.slice(2), env }));
`;

const BUILDERS = {
  succeeds: `${RECORD}console.log('• packaging done');`,
  fails: `${RECORD}console.error('⨯ cannot find fpm'); process.exit(1);`,
  // Works until a signal stops it (SIGINT and SIGTERM as Node's default: death).
  works: `${RECORD}console.log('packaging'); setInterval(() => undefined, 1000);`,
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

/** A project with this checkout's scripts and stand-ins for the two tools. */
function project(builder: keyof typeof BUILDERS, { viteExit = 0 } = {}): { dir: string; tmp: string } {
  const dir = tempDir('scriptorium-dist-project-');
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  cleanups.push(dir);
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
  write(join(dir, 'node_modules/electron-vite/bin/electron-vite.js'), `process.exit(${viteExit});`);
  write(join(dir, 'node_modules/electron-builder/cli.js'), BUILDERS[builder]);
  return { dir, tmp };
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

describe('npm run dist packages with electron-builder', () => {
  it('builds the app, then passes its options on to electron-builder', async () => {
    const run = await dist(project('succeeds'), ['--linux', '--dir']);
    expect(run.code).toBe(0);
    expect(run.saw?.args).toEqual(['--linux', '--dir']);
  });

  it("never passes npm's settings that would aim the addon's build at Node or another system", async () => {
    const run = await dist(project('succeeds'), ['--linux'], {
      npm_config_nodedir: '/usr',
      npm_config_target: '20.19.0',
      npm_config_runtime: 'node',
      npm_config_disturl: 'https://nodejs.org/dist',
      NPM_CONFIG_DIST_URL: 'https://nodejs.org/dist',
      npm_config_arch: 'x64',
      npm_config_platform: 'win32',
      npm_config_cache: '/tmp/npm-cache',
    });
    expect(run.code).toBe(0);
    expect(run.saw?.env).toEqual({ npm_config_cache: '/tmp/npm-cache' });
  });

  it("shows electron-builder's own error and exits with its code", async () => {
    const run = await dist(project('fails'), ['--linux']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('⨯ cannot find fpm');
  });

  it('exits 130 when Ctrl+C interrupts the packaging, and passes a SIGTERM on, exiting 143', async () => {
    // A terminal's Ctrl+C signals the whole foreground process group: dist and electron-builder.
    const interrupted = await dist(project('works'), ['--linux'], {}, (pid) => process.kill(-pid, 'SIGINT'));
    expect(interrupted.code).toBe(130);
    const terminated = await dist(project('works'), ['--linux'], {}, (pid) => process.kill(pid, 'SIGTERM'));
    expect(terminated.code).toBe(143);
  });

  it('stops before packaging when the app does not build', async () => {
    const run = await dist(project('succeeds', { viteExit: 3 }), ['--linux']);
    expect(run.code).toBe(3);
    expect(run.saw).toBeUndefined();
  });
});

describe("npm run dist on the Node.js Electron's packages ask for", () => {
  /** The project with an Electron package that asks for Node.js `range`, as Electron's does. */
  function withElectronAsking(range: string) {
    const made = project('succeeds');
    write(
      join(made.dir, 'node_modules/electron/package.json'),
      JSON.stringify({ version: '45.0.0', engines: { node: range } }),
    );
    return made;
  }

  it('refuses, before building anything, on a Node.js older than Electron asks for, saying which', async () => {
    const [major] = process.versions.node.split('.').map(Number);
    const run = await dist(withElectronAsking(`>= ${major! + 1}.0.0`), ['--linux']);
    expect(run.code).toBe(2);
    expect(run.saw).toBeUndefined();
    expect(run.stderr.trim()).toBe(
      `npm run dist: the desktop app's tools need Node.js ${major! + 1}.0.0 or newer, as Electron's packages ask (this is Node.js ${process.versions.node}); the CLI, browser mode and the tests run on this one. Nothing was packaged.`,
    );
  });

  it('packages on the Node.js it asks for or a newer one', async () => {
    const run = await dist(withElectronAsking(`>= ${process.versions.node}`), ['--linux']);
    expect(run.code).toBe(0);
    expect(run.saw?.args).toEqual(['--linux']);
  });
});

describe('npm run dist signs when the environment holds an identity', () => {
  const said = (run: Run, system: string) =>
    run.stdout.split('\n').filter((line) => line.startsWith(`${system}:`));

  it('leaves an unsigned macOS app signed ad hoc, saying so in one line, when no identity is set', async () => {
    const run = await dist(project('succeeds'), ['--mac']);
    expect(run.code).toBe(0);
    // Such an app cannot install an update (Squirrel.Mac wants a signed one): it says where it is.
    expect(run.saw?.args).toEqual(['--mac', '-c.mac.identity=null', '-c.extraMetadata.macUpdates=download']);
    expect(said(run, 'macOS')).toEqual([
      'macOS: not signed and not notarised (no CSC_LINK or CSC_NAME): the app is signed ad hoc, and its first start must be allowed in System Settings, Privacy & Security.',
    ]);
  });

  it('signs with the identity CSC_LINK names and says, in one line, that notarising is skipped without its keys', async () => {
    const run = await dist(project('succeeds'), ['--mac'], {
      CSC_LINK: '/secrets/developer-id.p12',
      CSC_KEY_PASSWORD: 'pw',
    });
    expect(run.saw?.args).toEqual(['--mac']);
    expect(run.saw?.env).toMatchObject({ CSC_LINK: '/secrets/developer-id.p12' });
    expect(said(run, 'macOS')).toEqual([
      'macOS: signed but not notarised (set APPLE_API_KEY to the path of the .p8 key, APPLE_API_KEY_ID and APPLE_API_ISSUER, or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID).',
    ]);
  });

  it('says nothing of signing when macOS signing and notarising are both set, the key being a .p8 file', async () => {
    const app = project('succeeds');
    const key = join(app.tmp, 'AuthKey_KEY.p8');
    writeFileSync(key, '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n');
    const run = await dist(app, ['--mac'], {
      CSC_NAME: 'Developer ID Application: Scriptorium',
      APPLE_API_KEY: key,
      APPLE_API_KEY_ID: 'KEY',
      APPLE_API_ISSUER: 'ISSUER',
    });
    expect(run.code).toBe(0);
    expect(run.saw?.args).toEqual(['--mac']);
    expect(run.saw?.env).toMatchObject({ APPLE_API_KEY: key });
    expect(run.stdout).not.toMatch(/^macOS:/m);
  });

  it("refuses, before building anything, an APPLE_API_KEY holding the key's contents or naming no file", async () => {
    const contents = await dist(project('succeeds'), ['--mac'], {
      CSC_NAME: 'Developer ID Application: Scriptorium',
      APPLE_API_KEY: '-----BEGIN PRIVATE KEY-----\nMIGTAgEA\n-----END PRIVATE KEY-----',
      APPLE_API_KEY_ID: 'KEY',
      APPLE_API_ISSUER: 'ISSUER',
    });
    expect(contents.code).toBe(2);
    expect(contents.saw).toBeUndefined();
    expect(contents.stderr).toContain(
      'macOS: APPLE_API_KEY holds the key itself; it must be the path of the .p8 file (write the key to a file and set APPLE_API_KEY to its path).',
    );
    expect(contents.stderr).not.toContain('MIGTAgEA');
    const nowhere = await dist(project('succeeds'), ['--mac'], { APPLE_API_KEY: '/nowhere/AuthKey.p8' });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('macOS: APPLE_API_KEY names no file (/nowhere/AuthKey.p8)');
  });

  it('says in one line that a Windows installer without a certificate is unsigned, and a .pfx in WIN_CSC_LINK signs it', async () => {
    const app = project('succeeds');
    const unsigned = await dist(app, ['--win']);
    expect(said(unsigned, 'Windows')).toEqual([
      'Windows: not signed (no WIN_CSC_LINK, nor AZURE_SIGNING_ENDPOINT and the rest of Azure Trusted Signing): SmartScreen warns at the first start.',
    ]);
    const signed = await dist(app, ['--win'], { WIN_CSC_LINK: '/secrets/authenticode.pfx' });
    expect(signed.stdout).not.toMatch(/^Windows:/m);
    expect(signed.saw?.args).toEqual(['--win']);
  });

  it("never signs the Windows installer with macOS's certificate, and says so", async () => {
    const run = await dist(project('succeeds'), ['--win'], {
      CSC_LINK: '/secrets/developer-id.p12',
      CSC_KEY_PASSWORD: 'pw',
    });
    expect(said(run, 'Windows')).toEqual([
      "Windows: not signed (no WIN_CSC_LINK, nor AZURE_SIGNING_ENDPOINT and the rest of Azure Trusted Signing; CSC_LINK is macOS's certificate and is not used): SmartScreen warns at the first start.",
    ]);
    expect(run.saw?.env).toEqual({});
  });

  it("signs with Azure Trusted Signing through electron-builder's azureSignOptions, and refuses half of its settings", async () => {
    const azure = {
      AZURE_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net',
      AZURE_SIGNING_ACCOUNT: 'scriptorium',
      AZURE_CERTIFICATE_PROFILE: 'public-trust',
      AZURE_PUBLISHER_NAME: 'Scriptorium maintainers',
      AZURE_TENANT_ID: 'tenant',
      AZURE_CLIENT_ID: 'client',
      AZURE_CLIENT_SECRET: 'secret',
    };
    const signed = await dist(project('succeeds'), ['--win'], azure);
    expect(signed.code).toBe(0);
    expect(signed.stdout).not.toMatch(/^Windows:/m);
    expect(signed.saw?.args).toEqual([
      '--win',
      '-c.win.azureSignOptions.endpoint=https://weu.codesigning.azure.net',
      '-c.win.azureSignOptions.codeSigningAccountName=scriptorium',
      '-c.win.azureSignOptions.certificateProfileName=public-trust',
      '-c.win.azureSignOptions.publisherName=Scriptorium maintainers',
    ]);
    expect(signed.saw?.env).toMatchObject({ AZURE_CLIENT_SECRET: 'secret' });

    const half = await dist(project('succeeds'), ['--win'], {
      AZURE_SIGNING_ENDPOINT: azure.AZURE_SIGNING_ENDPOINT,
      AZURE_TENANT_ID: 'tenant',
    });
    expect(half.code).toBe(2);
    expect(half.saw).toBeUndefined();
    expect(half.stderr).toContain(
      'Windows: Azure Trusted Signing needs AZURE_SIGNING_ACCOUNT, AZURE_CERTIFICATE_PROFILE, AZURE_PUBLISHER_NAME, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET as well.',
    );
  });
});
