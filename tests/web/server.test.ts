import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import type { JobView } from '../../src/shared/contract';
import { AppErrorSchema, type ErrorCode } from '../../src/shared/errors';
import { httpApi } from '../../src/renderer/src/transport/http';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { startWebServer, type RunningWebServer } from '../../src/web/server';
import { startRequestGate } from '../reliability/request-gate';
import { startCli, tempDir } from '../support/cli';

let dataDir: string;
let app: ScriptoriumApp;
let server: RunningWebServer;

/** A raw request with exactly the headers given (fetch would set Host and Origin itself). */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body, headers: response.headers }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const host = () => new URL(server.origin).host;
const goodHeaders = () => ({
  host: host(),
  authorization: `Bearer ${server.token}`,
  'content-type': 'application/json',
});
const aDraft = JSON.stringify({
  draft: {
    sources: [{ where: 'line 1', text: 'dQw4w9WgXcQ' }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 2,
    formats: ['txt'],
  },
  start: false,
});

beforeEach(async () => {
  dataDir = tempDir();
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Scriptorium</title>');
  app = openApp({ dataDir, keys: memoryKeyStore() });
  server = await startWebServer({ app, port: 0, rendererDir, maxBodyBytes: 64 * 1024 });
});

afterEach(async () => {
  await server.close();
  await app.close();
});

describe('browser mode refuses, with nothing changed and a typed error,', () => {
  const cases: Array<[string, () => Parameters<typeof send>[1], number, ErrorCode]> = [
    [
      'a request without the token',
      () => ({ method: 'POST', headers: { ...goodHeaders(), authorization: '' }, body: aDraft }),
      401,
      'access_refused',
    ],
    [
      'a wrong token',
      () => ({ method: 'POST', headers: { ...goodHeaders(), authorization: 'Bearer guess' }, body: aDraft }),
      403,
      'access_refused',
    ],
    [
      'a foreign Host (DNS rebinding)',
      () => ({
        method: 'POST',
        headers: { ...goodHeaders(), host: `evil.example:${new URL(server.origin).port}` },
        body: aDraft,
      }),
      403,
      'access_refused',
    ],
    [
      'a foreign Origin (a cross-site request)',
      () => ({ method: 'POST', headers: { ...goodHeaders(), origin: 'https://evil.example' }, body: aDraft }),
      403,
      'access_refused',
    ],
    [
      'an oversized body',
      () => ({
        method: 'POST',
        headers: goodHeaders(),
        body: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }),
      }),
      413,
      'invalid_input',
    ],
    [
      'a body that is not JSON',
      () => ({ method: 'POST', headers: goodHeaders(), body: '{"draft": ' }),
      400,
      'invalid_input',
    ],
    [
      // The words, not the size: a small body is read as the JSON it fails to be.
      'a small body that says "too large", which is not JSON either',
      () => ({ method: 'POST', headers: goodHeaders(), body: 'too large' }),
      400,
      'invalid_input',
    ],
    [
      'a body sent as a form, not JSON',
      () => ({ method: 'POST', headers: { ...goodHeaders(), 'content-type': 'text/plain' }, body: aDraft }),
      415,
      'invalid_input',
    ],
    ['a command not POSTed', () => ({ method: 'GET', headers: goodHeaders() }), 405, 'invalid_input'],
  ];

  it.each(cases)('%s', async (_name, options, status, code) => {
    const response = await send('/api/command/createJob', options());
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(AppErrorSchema.parse(JSON.parse(response.body))).toMatchObject({
      code,
      message: expect.any(String),
    });
    expect(await app.handlers.listJobs({})).toEqual([]);
  });

  it('an address where nothing is, and a download that is gone', async () => {
    for (const path of ['/api/nothing-here', `/s/${server.token}/api/download/${randomUUID()}`]) {
      const response = await send(path, { headers: goodHeaders() });
      expect([response.status, JSON.parse(response.body).code]).toEqual([404, 'invalid_input']);
    }
  });

  it('a request it fails on, as internal (a download whose file was removed)', async () => {
    const { job } = await app.handlers.createJob(JSON.parse(aDraft));
    const exported = await app.handlers.exportJob({ jobId: job.id, formats: ['txt'], destination: null });
    rmSync(app.download(exported.exportId)!.path);
    const response = await send(`/api/download/${exported.exportId}`, { headers: goodHeaders() });
    expect([response.status, JSON.parse(response.body).code]).toEqual([500, 'internal']);
  });

  it('a body that does not fit the contract (answered with a typed error)', async () => {
    const response = await send('/api/command/createJob', {
      method: 'POST',
      headers: goodHeaders(),
      body: JSON.stringify({ draft: { sources: 'all of them' }, start: true }),
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await app.handlers.listJobs({})).toEqual([]);
  });

  it('pages and the event stream without the token, or for a foreign Host', async () => {
    const page = await send('/', { headers: { host: host() } });
    expect(page.status).toBe(401);
    expect(page.body).toMatch(/needs the private address that <code>scriptorium ui<\/code> printed/);
    expect(page.body).not.toMatch(/<script/i);
    expect(String(page.headers['content-security-policy'])).toMatch(/default-src 'self'; script-src 'self'/);
    const events = await send('/api/events', { headers: { host: host() } });
    expect([events.status, JSON.parse(events.body).code]).toEqual([401, 'access_refused']);
    // The token is no key in a query, nor in a cookie.
    expect((await send(`/?token=${server.token}`, { headers: { host: host() } })).status).toBe(401);
    const cookie = `scriptorium_token=${server.token}`;
    expect((await send('/', { headers: { host: host(), cookie } })).status).toBe(401);
    expect((await send('/s/guess/', { headers: { host: host() } })).status).toBe(403);
    expect((await send(`/s/${server.token}/`, { headers: { host: 'attacker.example' } })).status).toBe(403);
  });
});

describe('browser mode writes no file where the page says', () => {
  it('an export to a path is refused, and the same export is offered as a download', async () => {
    const { job } = await app.handlers.createJob(JSON.parse(aDraft));
    const target = join(dataDir, 'named-by-the-page.zip');
    const exportTo = (destination: string | null) =>
      send('/api/command/exportJob', {
        method: 'POST',
        headers: goodHeaders(),
        body: JSON.stringify({ jobId: job.id, formats: ['txt'], destination }),
      });
    const refused = await exportTo(target);
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 'output_refused' } });
    expect(existsSync(target)).toBe(false);
    const offered = JSON.parse((await exportTo(null)).body);
    expect(offered).toMatchObject({ ok: true, value: { path: null } });
    expect(app.download(offered.value.exportId)).toBeDefined();
  });
});

describe('browser mode keeps no file for automatic exports', () => {
  it('refuses to set one, and clears one', async () => {
    const { job } = await app.handlers.createJob(JSON.parse(aDraft));
    const keepAt = async (destination: string | null) =>
      JSON.parse(
        (
          await send('/api/command/setAutoExport', {
            method: 'POST',
            headers: goodHeaders(),
            body: JSON.stringify({ jobId: job.id, destination }),
          })
        ).body,
      );
    expect(await keepAt(join(dataDir, 'named-by-the-page.zip'))).toMatchObject({
      ok: false,
      error: { code: 'output_refused' },
    });
    expect((await app.handlers.jobDetail({ jobId: job.id })).job.keepCurrent.autoExportPath).toBeNull();
    expect(await keepAt(null)).toMatchObject({ ok: true, value: { keepCurrent: { autoExportPath: null } } });
  });
});

describe('browser mode serves', () => {
  it('the whole app under its private path, the token, and sets no cookie', async () => {
    expect(server.url).toBe(`${server.origin}/s/${server.token}/`);
    const page = await send(`/s/${server.token}/`, { headers: { host: host() } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Scriptorium</title>');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self'/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const answer = await send(`/s/${server.token}/api/command/listJobs`, {
      method: 'POST',
      headers: { host: host(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(JSON.parse(answer.body)).toEqual({ ok: true, value: [] });
    // Without its trailing slash, the folder is sent to with one, so that relative addresses work.
    const bare = await send(`/s/${server.token}`, { headers: { host: host() } });
    expect(bare.status).toBe(308);
    expect(bare.headers['location']).toBe(`/s/${server.token}/`);
  });

  it('a command from the page, its answer as an envelope', async () => {
    const response = await send('/api/command/createJob', {
      method: 'POST',
      headers: goodHeaders(),
      body: aDraft,
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      ok: true,
      value: { created: true, job: { status: 'draft' } },
    });
  });
});

describe('a job started by the CLI in the same data folder', () => {
  let sim: RunningSimulator;
  beforeEach(async () => {
    sim = await startSimulator({ credits: 10_000, latencyMs: 5 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('appears and progresses live in a browser-mode client', async () => {
    await server.close();
    await app.close();
    app = openApp({ dataDir, keys: memoryKeyStore(), watch: true });
    server = await startWebServer({ app, port: 0 });
    const api = httpApi({ base: `${server.origin}/`, token: server.token });
    const seen: JobView[] = [];
    api.on('jobChanged', (job) => seen.push(job));
    /** Resolves at the first job event (from now on) that passes `holds`. */
    const seenWhen = (holds: (job: JobView) => boolean): Promise<void> =>
      new Promise((resolve) => {
        const stop = api.on('jobChanged', (job) => {
          if (!holds(job)) return;
          stop();
          resolve();
        });
      });
    // The event stream is open once the client hears of a job of its own.
    const heard = seenWhen(() => true);
    await api.createJob({
      draft: {
        sources: [{ where: 'line 1', text: 'dQw4w9WgXcQ' }],
        languages: 'orig',
        includeTimestamp: true,
        sendMetadata: true,
        maxVideos: null,
        budget: null,
        concurrency: 1,
        formats: ['txt'],
      },
      start: false,
    });
    await heard;

    // The CLI's purchases wait at a gate, so the job is seen at each step however fast it would run.
    const gate = await startRequestGate(sim.url);
    const elsewhere = (job: JobView): boolean => job.runningIn === 'elsewhere' && job.status === 'running';
    const seenRunning = seenWhen(elsewhere);
    const cli = startCli(
      ['export', 'PLseenFromTheBrowser_n200', '--concurrency', '2', '--out', join(dataDir, 'cli.zip')],
      {
        TRANSCRIPT_API_KEY: sim.key,
        TRANSCRIPT_API_BASE_URL: gate.url,
        SCRIPTORIUM_DATA_DIR: dataDir,
      },
    );
    await gate.whenWaiting(2);
    await seenRunning;
    const twoDone = seenWhen((job) => elsewhere(job) && job.counts.ok + job.counts.unavailable >= 2);
    gate.releaseWaiting();
    await twoDone;
    const completed = seenWhen((job) => job.status === 'completed' && job.counts.total === 200);
    gate.open();
    expect((await cli.done).code).toBe(0);
    await completed;
    api.close();
    await gate.close();

    const running = seen.filter((job) => job.status === 'running');
    expect(running.length).toBeGreaterThan(1);
    expect(running[0]?.runningIn).toBe('elsewhere');
    const done = running.map((job) => job.counts.ok + job.counts.unavailable);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.at(-1)).toBeGreaterThan(done[0]!);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', counts: { total: 200, pending: 0 } });
  });
});
