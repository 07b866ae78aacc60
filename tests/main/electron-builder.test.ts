import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ROOT } from './scratch-project';

const require = createRequire(import.meta.url);
// electron-builder's own reading and schema check of electron-builder.yml.
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: null, options: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: Record<string, unknown>, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

describe('electron-builder.yml', () => {
  it('is a valid configuration packaging for Windows, macOS and Linux with better-sqlite3 rebuilt and unpacked', async () => {
    const config = await getConfig(ROOT, null, null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(config).toMatchObject({
      win: { target: ['nsis'] },
      mac: { target: ['dmg'] },
      linux: { target: ['AppImage', 'deb'] },
      npmRebuild: true,
      asarUnpack: ['node_modules/better-sqlite3/**'],
      electronFuses: { runAsNode: false, onlyLoadAppFromAsar: true },
    });
    const files = (config['files'] as Array<{ filter: string[] }>).flatMap((entry) => entry.filter);
    expect(files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'package.json']),
    );
    expect((require('../../package.json') as { main: string }).main).toBe('out/main/index.js');
  });
});
