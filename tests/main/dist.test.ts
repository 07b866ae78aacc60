import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations
import { keepingNodeAddon } from '../../scripts/dist.mjs';

const keep = keepingNodeAddon as <T>(addonPath: string, action: () => T) => T;
let folder: string;

afterEach(() => rmSync(folder, { recursive: true, force: true }));

function addonFile(): string {
  folder = mkdtempSync(join(tmpdir(), 'dist-test-'));
  const addon = join(folder, 'better_sqlite3.node');
  writeFileSync(addon, 'built for Node');
  return addon;
}

describe('npm run dist keeps the CLI working', () => {
  it('puts the Node build of better-sqlite3 back after packaging rebuilt it for Electron', () => {
    const addon = addonFile();
    const status = keep(addon, () => {
      writeFileSync(addon, 'built for Electron');
      return 0;
    });
    expect(status).toBe(0);
    expect(readFileSync(addon, 'utf8')).toBe('built for Node');
  });

  it('puts it back when packaging fails half way, too', () => {
    const addon = addonFile();
    expect(() =>
      keep(addon, () => {
        writeFileSync(addon, 'half built');
        throw new Error('electron-builder failed');
      }),
    ).toThrow('electron-builder failed');
    expect(readFileSync(addon, 'utf8')).toBe('built for Node');
  });
});
