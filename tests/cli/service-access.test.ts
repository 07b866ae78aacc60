import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp } from '../../src/core/app';
import { z } from 'zod';
import { describePlaylist, startSimulator, type RunningSimulator } from '../../src/simulator';
import { startWireServer, type SeenRequest } from '../core/api/wire-server';
import { readZip, runCli, tempDir, type ZipReading } from '../support/cli';

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

  it('too short to be one (kl) is refused up front (exit 2): nothing created, sent or counted', async () => {
    sim = await startSimulator({ credits: 100, keys: ['kl'] });
    const result = await runCli(
      ['export', 'dQw4w9WgXcQ', '--out', join(dir, 'x.zip'), '--base-url', sim.url],
      { TRANSCRIPT_API_KEY: 'kl', SCRIPTORIUM_DATA_DIR: dataDir },
    );
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      'The API key has 2 characters, too few to be a key (a key has at least 8). Copy it again from your account page. Fix TRANSCRIPT_API_KEY; nothing was sent.',
    );
    expect(sim.admin.requests()).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
  });

  describe('found inside the data the service sends', () => {
    // Two pages of a playlist: items 1, 101 and 102 are bought, the rest listed and skipped.
    const PLAYLIST = 'PLkeyInsideData_n110';
    const args = (out: string, url: string) => [
      'export',
      PLAYLIST,
      '--items',
      '1,101-102',
      '--out',
      out,
      '--base-url',
      url,
    ];

    /** Exports with `key` as the service's only key; returns the corpus and the database's bytes. */
    async function exportWith(key: string): Promise<{ zip: ZipReading; database: Buffer }> {
      sim = await startSimulator({ credits: 100, keys: [key] });
      const out = join(dir, 'keyed.zip');
      const result = await runCli(args(out, sim.url), {
        TRANSCRIPT_API_KEY: key,
        SCRIPTORIUM_DATA_DIR: dataDir,
      });
      expect(result.code, result.stderr).toBe(0);
      return { zip: await readZip(out), database: readFileSync(join(dataDir, 'scriptorium.db')) };
    }

    it('leaves the video IDs that hold the key intact, in the database and the corpus', async () => {
      const ids = describePlaylist(PLAYLIST).videoIds();
      const key = ids[0]!.slice(1, 9);
      const { zip, database } = await exportWith(key);
      expect(zip.index.slice(1).map((row) => row[0])).toEqual(ids);
      expect(zip.transcripts.map((record) => record.video_id)).toEqual([ids[0], ids[100], ids[101]]);
      expect(JSON.stringify(zip)).not.toContain('[redacted]');
      expect(database.includes(ids[0]!)).toBe(true);
      expect(database.includes('[redacted]')).toBe(false);
    });

    it('sends back a continuation cursor that holds the key as it came: the walk reads both pages', async () => {
      // The first page's cursor, from a simulator of the same seed (its cursors depend on nothing else).
      const probe = await startSimulator({});
      const page = await fetch(`${probe.url}/api/v2/playlist/videos?playlist=${PLAYLIST}`, {
        headers: { authorization: `Bearer ${probe.key}`, 'user-agent': 'Scriptorium/test' },
      });
      const cursor = z.object({ continuation_token: z.string() }).parse(await page.json()).continuation_token;
      await probe.close();

      const { zip } = await exportWith(cursor.slice(4, 12));
      expect(zip.manifest).toMatchObject({
        job_finished: true,
        counts: { videos: 110, ok: 3, skipped: 107 },
      });
      expect(zip.errors.slice(1).filter((row) => row[0] === '')).toEqual([]);
    });
  });

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
