import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('the desktop build', () => {
  it('builds with electron-vite, and the sandboxed preload is CommonJS needing nothing but electron', async () => {
    await run(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], {
      timeout: 60_000,
    });
    const preload = readFileSync('out/preload/index.cjs', 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    expect(required).toEqual(['electron']);
    expect(preload).not.toMatch(/^import /m);
    expect(readFileSync('out/renderer/index.html', 'utf8')).toContain('<div id="root">');
  }, 60_000);
});
