import { afterEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp, type Updates } from '../../../src/core/app';
import type { UpdateStatus } from '../../../src/shared/contract';
import { APP_VERSION } from '../../../src/shared/version';
import { tempDir } from '../../support/cli';

// The updates domain of the contract: what a face without an updater answers (browser mode, the
// CLI), and, with the desktop app's, that Settings' "Check for updates" reaches it, its status
// answers the commands and its changes go out as updateChanged. The updater here stands in for the
// desktop app's (src/main/updates, tested in tests/main/updates.test.ts): it keeps what it is told.

let app: ScriptoriumApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An updater that has found 0.2.0, and keeps what it is told. */
function recordingUpdates() {
  const told: string[] = [];
  const listeners = new Set<(status: UpdateStatus) => void>();
  let status: UpdateStatus = {
    current: APP_VERSION,
    state: { phase: 'current', checkedAt: null },
    waiting: null,
  };
  const updates: Updates = {
    status: () => status,
    check: async () => {
      told.push('check');
      status = {
        ...status,
        state: {
          phase: 'available',
          version: '0.2.0',
          offer: 'install',
          releaseUrl: 'https://example.org/',
          file: null,
        },
      };
      for (const listener of listeners) listener(status);
      return status;
    },
    download: async () => (told.push('download'), status),
    install: async () => (told.push('install'), status),
    checkingChanged: (on) => told.push(`checking ${on}`),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { updates, told };
}

describe('the updates commands', () => {
  it('say, in browser mode and the CLI, that this copy does not update itself', async () => {
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore() });
    const status = await app.handlers.updateStatus({});
    expect(status).toEqual({
      current: APP_VERSION,
      state: {
        phase: 'unsupported',
        message:
          'This copy of Scriptorium does not update itself: it runs from its source or npm (update it there). The desktop app looks for new releases.',
      },
      waiting: null,
    });
    expect(await app.handlers.checkForUpdates({})).toEqual(status);
  });

  it('answer from the face’s updater, and pass its changes on as updateChanged', async () => {
    const { updates, told } = recordingUpdates();
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore(), updates });
    const heard: UpdateStatus[] = [];
    app.on('updateChanged', (status) => heard.push(status));
    const found = await app.handlers.checkForUpdates({});
    expect(found.state).toMatchObject({ phase: 'available', version: '0.2.0' });
    expect(heard).toEqual([found]);
    await app.handlers.downloadUpdate({});
    await app.handlers.installUpdate({});
    expect(told).toEqual(['check', 'download', 'install']);
  });

  it('keep "Check for updates" in Settings (on unless turned off), and tell the updater when it is saved', async () => {
    const dataDir = tempDir();
    const { updates, told } = recordingUpdates();
    app = openApp({ dataDir, keys: memoryKeyStore(), updates });
    expect((await app.handlers.getSettings({})).updates).toEqual({ check: true });
    // Saving something else does not touch it.
    await app.handlers.updateSettings({ billingUrl: 'https://billing.example.org/' });
    expect(told).toEqual([]);
    expect((await app.handlers.updateSettings({ updates: { check: false } })).updates).toEqual({
      check: false,
    });
    expect(told).toEqual(['checking false']);
    await app.close();
    app = openApp({ dataDir, keys: memoryKeyStore() });
    expect((await app.handlers.getSettings({})).updates).toEqual({ check: false });
  });
});
