import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('the desktop build', () => {
  it('builds with electron-vite, and the sandboxed preload is CommonJS needing nothing but electron', async () => {
    // Into a folder of its own: rebuilding out/ would empty out/renderer under the CLI's ui tests.
    const outDir = mkdtempSync(join(tmpdir(), 'scriptorium-build-'));
    await run(
      process.execPath,
      ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', outDir],
      { timeout: 60_000 },
    );
    const preload = readFileSync(join(outDir, 'preload/index.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    expect(required).toEqual(['electron']);
    expect(preload).not.toMatch(/^import /m);
    expect(readFileSync(join(outDir, 'renderer/index.html'), 'utf8')).toContain('<div id="root">');
    rmSync(outDir, { recursive: true, force: true });
  }, 60_000);
});
