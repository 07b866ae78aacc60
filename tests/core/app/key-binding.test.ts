import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { JobDraft, JobView, ScriptoriumApi } from '../../../src/shared/contract';
import { ContractError } from '../../../src/shared/contract-error';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { startWireServer, type SeenRequest } from '../api/wire-server';
import { tempDir } from '../../support/cli';
import { TRANSPORTS, type Connected } from '../../support/transports';

// The key leaves only for the address it was given with: no sequence of commands sends it elsewhere.
let sim: RunningSimulator;
let other: { url: string; seen: SeenRequest[]; close(): Promise<void> };
let app: ScriptoriumApp;
let face: Connected;
let api: ScriptoriumApi;

const OTHER_KEY = 'sk_given_for_the_other_address';

function draft(source: string): JobDraft {
  return {
    sources: [{ where: 'line 1', text: source }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 4,
    formats: ['txt'],
  };
}

async function failure(promise: Promise<unknown>): Promise<ContractError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ContractError)) throw new Error(`expected a ContractError, got ${String(error)}`);
  return error;
}

/** Resolves with the first view of the job that passes `done`. */
function jobBecomes(jobId: number, done: (job: JobView) => boolean): Promise<JobView> {
  return new Promise((resolve) => {
    const stop = api.on('jobChanged', (job) => {
      if (job.id === jobId && done(job)) {
        stop();
        resolve(job);
      }
    });
    void api.jobDetail({ jobId }).then(({ job }) => {
      if (done(job)) {
        stop();
        resolve(job);
      }
    });
  });
}

/** Every Authorization header the other address received. */
const keysSentToOther = () => other.seen.map((request) => request.headers.authorization ?? null);

describe.each(TRANSPORTS)('the key and its address, over %s', (_name, connect) => {
  beforeEach(async () => {
    sim = await startSimulator({ credits: 1000 });
    other = await startWireServer((_request, response) => {
      response
        .writeHead(401, { 'content-type': 'application/problem+json' })
        .end('{"code":"E_UNAUTHORIZED"}');
    });
    // Browser mode as `scriptorium ui --base-url` is not given: the address comes from Settings,
    // the key from TRANSCRIPT_API_KEY, given together with the simulator's address.
    app = openApp({
      dataDir: tempDir(),
      keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
      addressFromSettings: true,
      runner: true,
    });
    face = await connect(app);
    api = face.api;
    await api.updateSettings({ serviceUrl: sim.url });
  });

  afterEach(async () => {
    await face.close();
    await app.close();
    await other.close();
    await sim.close();
  });

  it('asks for the key again when the address changes, and never sends it to the new one', async () => {
    expect(await api.testConnection({})).toMatchObject({ ok: true });
    const asked = sim.admin.requests().length;

    await api.updateSettings({ serviceUrl: other.url });
    // The key from TRANSCRIPT_API_KEY is not called saved; Settings says what is missing in its own
    // words, and everywhere else says where to give the key.
    const again = `The key from TRANSCRIPT_API_KEY is for ${sim.url}, the address Scriptorium started with, so it is not sent to ${other.url}.`;
    expect(await api.keyStatus({})).toEqual({ set: false, storage: null, message: again });
    expect(await api.testConnection({})).toEqual({ ok: false, message: `${again} Nothing was sent.` });
    const elsewhere = `${again} Enter it in Settings. Nothing was sent.`;
    const preview = await failure(api.previewJob({ draft: draft('PLkeyBindingPreview_n10') }));
    expect(preview).toMatchObject({ code: 'no_key', message: elsewhere });
    // A job started meanwhile waits, queued, saying what it lacks.
    const { job } = await api.createJob({ draft: draft('PLkeyBindingStart_n10'), start: true });
    const held = await jobBecomes(job.id, (view) => view.waitingFor !== null);
    expect(held).toMatchObject({ status: 'queued', waitingFor: elsewhere });
    expect((await failure(api.runJob({ jobId: job.id }))).code).toBe('no_key');

    expect(other.seen).toEqual([]);
    expect(sim.admin.requests()).toHaveLength(asked);

    // A key entered for the new address goes there, and only that one: the waiting job runs with it
    // (and stops, refused, as the other address refuses every key).
    await api.setKey({ key: OTHER_KEY });
    expect(await api.keyStatus({})).toMatchObject({ set: true });
    await jobBecomes(job.id, (view) => view.status === 'failed');
    expect(await api.testConnection({})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/refused the key/),
    });
    const sentToOther = keysSentToOther();
    expect(sentToOther.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sentToOther)).toEqual(new Set([`Bearer ${OTHER_KEY}`]));

    // Back to the first address: the key given for the other one does not follow.
    await api.updateSettings({ serviceUrl: sim.url });
    expect(await api.testConnection({})).toEqual({
      ok: false,
      message: `The key was saved for ${other.url}, so it is not sent to ${sim.url}. Nothing was sent.`,
    });
    expect(sim.admin.requests()).toHaveLength(asked);
    expect(keysSentToOther()).toEqual(sentToOther);
  });

  it('keeps the key for the same address however it is written', async () => {
    await api.updateSettings({ serviceUrl: `${sim.url}/` });
    expect(await api.keyStatus({})).toMatchObject({ set: true });
    expect(await api.testConnection({})).toMatchObject({ ok: true });
  });

  it('refuses an address the key may not travel to, and a key no request can carry, before anything is kept', async () => {
    for (const address of ['http://example.invalid:8080', 'http://192.168.1.20/', 'ftp://example.com']) {
      const refused = await failure(api.updateSettings({ serviceUrl: address }));
      expect(refused.code).toBe('invalid_input');
    }
    expect((await failure(api.updateSettings({ serviceUrl: 'http://example.invalid:8080' }))).message).toBe(
      'The service address "http://example.invalid:8080" must start with https:// (http:// only for a service on this computer: localhost, 127.x.x.x or [::1]), so that the key never crosses the network unencrypted. Nothing was saved.',
    );
    expect((await api.getSettings({})).serviceUrl).toBe(sim.url);

    const pasted = await failure(api.setKey({ key: 'sk_pasted\u2013from_a_page' }));
    expect(pasted).toMatchObject({
      code: 'invalid_input',
      message:
        'The API key holds a character that is not plain ASCII (U+2013) at character 10, which cannot be sent in a request: a key is made of letters, digits and punctuation only. Copy it again from your account page. Nothing was sent.',
    });
    expect((await failure(api.setKey({ key: 'sk_two\nlines' }))).code).toBe('invalid_input');
    expect(await api.keyStatus({})).toMatchObject({ set: true, storage: 'environment' });
    expect(await api.testConnection({})).toMatchObject({ ok: true });
    expect(other.seen).toEqual([]);
  });

  it('asks for the address before a key, since a key is kept for one address', async () => {
    await face.close();
    await app.close();
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore(), addressFromSettings: true });
    face = await connect(app);
    api = face.api;
    expect(await failure(api.setKey({ key: sim.key }))).toMatchObject({
      code: 'invalid_input',
      message: 'Set the service address first: the key is only ever sent to the address it is saved with.',
    });
    await api.updateSettings({ serviceUrl: sim.url });
    await api.setKey({ key: sim.key });
    expect(await api.testConnection({})).toMatchObject({ ok: true });
  });

  it('never sends a key given without an address (ui started with a key but no --base-url) to the one set later', async () => {
    await face.close();
    await app.close();
    app = openApp({ dataDir: tempDir(), keys: memoryKeyStore({ key: sim.key }), addressFromSettings: true });
    face = await connect(app);
    api = face.api;
    await api.updateSettings({ serviceUrl: other.url });
    expect(await api.testConnection({})).toEqual({
      ok: false,
      message:
        'The key from TRANSCRIPT_API_KEY was given without a service address, so it is sent nowhere. Nothing was sent.',
    });
    expect(other.seen).toEqual([]);
  });
});
