import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp } from '../../src/core/app';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { startWireServer, type SeenRequest } from '../core/api/wire-server';
import { runCli, tempDir } from '../support/cli';

// What the CLI sends where: only to the address it is given, only a key a request can carry.
let sim: RunningSimulator | undefined;
let dir: string;
let dataDir: string;

beforeEach(() => {
  dir = tempDir();
  dataDir = join(dir, 'data');
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

describe('the service address', () => {
  it('refuses plain http to another computer at once (exit 2), creating and sending nothing', async () => {
    const result = await runCli(
      ['export', 'dQw4w9WgXcQ', '--out', join(dir, 'x.zip'), '--base-url', 'http://example.invalid:8080'],
      { TRANSCRIPT_API_KEY: 'sk_demo_scriptorium', SCRIPTORIUM_DATA_DIR: dataDir },
    );
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      'The service address "http://example.invalid:8080" must start with https:// (http:// only for a service on this computer: localhost, 127.x.x.x or [::1]), so that the key never crosses the network unencrypted. Fix --base-url or TRANSCRIPT_API_BASE_URL; nothing was sent.',
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses the same from TRANSCRIPT_API_BASE_URL, for preview as well', async () => {
    const result = await runCli(['preview', 'PLaddressCheck_n10'], {
      TRANSCRIPT_API_KEY: 'sk_demo_scriptorium',
      TRANSCRIPT_API_BASE_URL: 'http://192.168.7.7:8787',
      SCRIPTORIUM_DATA_DIR: dataDir,
    });
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(/^The service address "http:\/\/192\.168\.7\.7:8787" must start/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("never uses the address saved in Settings: the CLI's comes only from --base-url or the environment", async () => {
    const elsewhere: SeenRequest[] = [];
    const other = await startWireServer((request, response) => {
      elsewhere.push(request);
      response.writeHead(404).end();
    });
    try {
      // The desktop app (or browser mode) saved another address in the shared data folder.
      const app = openApp({ dataDir, keys: memoryKeyStore(), addressFromSettings: true });
      await app.handlers.updateSettings({ serviceUrl: other.url });
      await app.close();

      const result = await runCli(['export', 'dQw4w9WgXcQ', '--out', join(dir, 'x.zip')], {
        TRANSCRIPT_API_KEY: 'sk_demo_scriptorium',
        SCRIPTORIUM_DATA_DIR: dataDir,
      });
      expect(result.code).toBe(2);
      expect(lastLine(result.stderr)).toBe(
        'No service address is set: pass --base-url URL or set TRANSCRIPT_API_BASE_URL, then run the command again. Nothing was sent.',
      );
      expect(elsewhere).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('the API key', () => {
  it.each([
    ['a line break', 'sk_demo\nscriptorium', 'a line break (U+000A) at character 8'],
    ['a carriage return', 'sk_demo\rscriptorium', 'a carriage return (U+000D) at character 8'],
    [
      'an en dash pasted from a web page',
      'sk_demo\u2013scriptorium',
      'a character that is not plain ASCII (U+2013) at character 8',
    ],
  ])(
    'holding %s is refused up front (exit 2): nothing created, sent or counted',
    async (_what, key, where) => {
      sim = await startSimulator({ credits: 100 });
      const result = await runCli(
        ['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--out', join(dir, 'x.zip'), '--base-url', sim.url],
        { TRANSCRIPT_API_KEY: key, SCRIPTORIUM_DATA_DIR: dataDir },
      );
      expect(result.code).toBe(2);
      expect(lastLine(result.stderr)).toBe(
        `The API key holds ${where}, which cannot be sent in a request: a key is made of letters, digits and punctuation only. Copy it again from your account page. Fix TRANSCRIPT_API_KEY; nothing was sent.`,
      );
      expect(sim.admin.requests()).toEqual([]);
      expect(existsSync(dataDir)).toBe(false);
    },
  );

  it('too long for the service to read (431) is the key refused, said as too long: exit 4, nothing charged or failed', async () => {
    sim = await startSimulator({ credits: 100 });
    const result = await runCli(
      ['export', 'dQw4w9WgXcQ', 'jNQXAC9IVRw', '--out', join(dir, 'x.zip'), '--base-url', sim.url],
      { TRANSCRIPT_API_KEY: `sk_${'k'.repeat(100_000)}`, SCRIPTORIUM_DATA_DIR: dataDir },
    );
    expect(result.code).toBe(4);
    expect(lastLine(result.stderr)).toBe(
      'The service could not read the request (HTTP 431: its headers are too large): the API key, which travels in one, is too long for it; nothing was charged. Check TRANSCRIPT_API_KEY, then run the same command again.',
    );
    const credits = await runCli(['credits', '--json'], { SCRIPTORIUM_DATA_DIR: dataDir });
    expect(JSON.parse(credits.stdout)).toMatchObject({ total: 0, possible: 0 });
    expect(sim.admin.ledger()).toEqual([]);
  });
});
