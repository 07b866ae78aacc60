import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import { electronBindingFile, nativeBindingFor } from '../../src/main/native-binding';
import { tempDir } from '../support/cli';

const require = createRequire(import.meta.url);
/** The addon built for this Node, as `npm install` left it. */
const NODE_ADDON = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build/Release/better_sqlite3.node',
);

let app: ScriptoriumApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("better-sqlite3's nativeBinding, for the Electron build of a checkout", () => {
  it('reaches better-sqlite3 through openApp: the file given is the addon loaded', async () => {
    const dir = tempDir();
    const missing = join(dir, 'not-built', 'better_sqlite3.node');
    expect(() =>
      openApp({ dataDir: join(dir, 'data'), keys: memoryKeyStore(), nativeBinding: missing }),
    ).toThrow(missing);

    // A copy of the Node addon under another name loads, and the app works on it.
    const copy = join(dir, 'elsewhere', 'copy.node');
    mkdirSync(dirname(copy));
    copyFileSync(NODE_ADDON, copy);
    app = openApp({ dataDir: join(dir, 'data'), keys: memoryKeyStore(), nativeBinding: copy });
    expect(await app.handlers.listJobs({})).toEqual([]);
    expect(require.cache[copy]).toBeDefined();
  });

  it("is the Electron build of a checkout when it exists, a package's own in a packaged app, and none on Node", () => {
    const checkout = tempDir();
    const installSqlite = (version: string) => {
      mkdirSync(join(checkout, 'node_modules/better-sqlite3'), { recursive: true });
      writeFileSync(join(checkout, 'node_modules/better-sqlite3/package.json'), JSON.stringify({ version }));
    };
    installSqlite('12.11.1');
    const resourcesPath = join(checkout, 'resources');
    const context = { isPackaged: false, appPath: checkout, resourcesPath, electronVersion: '45.4.1' };
    expect(nativeBindingFor(context)).toBeUndefined();

    const built = electronBindingFile(checkout, '45.4.1', '12.11.1');
    expect(built).toBe(
      join(checkout, 'node_modules/.scriptorium-electron/better_sqlite3-v12.11.1-electron-v45.4.1.node'),
    );
    mkdirSync(dirname(built), { recursive: true });
    copyFileSync(NODE_ADDON, built);
    expect(nativeBindingFor(context)).toBe(built);
    // electron-builder.yml's extraResources puts the package's own beside app.asar.
    expect(nativeBindingFor({ ...context, isPackaged: true })).toBe(
      join(resourcesPath, 'native/better_sqlite3.node'),
    );
    expect(nativeBindingFor({ ...context, electronVersion: undefined })).toBeUndefined();
    // An upgrade of either package needs a new build, not the stale one.
    expect(nativeBindingFor({ ...context, electronVersion: '46.0.0' })).toBeUndefined();
    installSqlite('12.12.0');
    expect(nativeBindingFor(context)).toBeUndefined();
  });
});
