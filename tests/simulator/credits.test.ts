import { afterEach, describe, expect, test } from 'vitest';
import { startSimulator } from '../../src/simulator';
import type { RunningSimulator, SimulatorOptions } from '../../src/simulator';
import { api } from './helpers';
import { problemSchema } from './schemas';

let sim: RunningSimulator;
async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  sim = await startSimulator(options);
  return sim;
}
afterEach(() => sim.close());

async function code(endpoint: string, query: Record<string, string>): Promise<[number, string | undefined]> {
  const reply = await api(sim, endpoint, query);
  return [reply.status, reply.status === 200 ? undefined : problemSchema.parse(reply.json()).code];
}

describe('charging', () => {
  test('charges one credit per 200 of a paid endpoint, nothing for errors or free endpoints', async () => {
    await start({ credits: 10 });
    await api(sim, 'transcript', { video_url: 'dQw4w9WgXcQ' });
    await api(sim, 'transcript', { video_url: 'dQw4w9WgXcQ' }); // a repeat is charged again
    await api(sim, 'transcript', { video_url: 'nocapABCDEF' }); // 404
    await api(sim, 'transcript', { video_url: 'bad' }); // 422
    await api(sim, 'channel/resolve', { input: '@free' });
    await api(sim, 'channel/latest', { channel: '@free' });
    await api(sim, 'playlist/videos', { playlist: 'PLpaid_n3' });
    await api(sim, 'search', { q: 'paid', limit: '50' }); // per request, not per result

    expect(sim.admin.credits()).toBe(6);
    expect(sim.admin.chargesFor('dQw4w9WgXcQ')).toBe(2);
    expect(sim.admin.chargesFor('nocapABCDEF')).toBe(0);
    expect(sim.admin.ledger().map((charge) => charge.endpoint)).toEqual([
      'transcript',
      'transcript',
      'playlist/videos',
      'search',
    ]);
    expect(sim.admin.ledger()[2]).toMatchObject({ seq: 3, key: 'key#0', playlist: 'PLpaid_n3' });
    const stats = sim.admin.stats();
    expect(stats).toMatchObject({ requests: 8, charged: 4, byStatus: { '200': 6, '404': 1, '422': 1 } });
    expect(sim.admin.requests().filter((request) => request.charged)).toHaveLength(4);
  });
});

describe('402 codes', () => {
  test('the free grant runs out with E_FREE_GRANT_DEPLETED; free endpoints keep working', async () => {
    await start({ credits: 1 });
    expect(await code('search', { q: 'a' })).toEqual([200, undefined]);
    expect(await code('search', { q: 'a' })).toEqual([402, 'E_FREE_GRANT_DEPLETED']);
    expect(await code('transcript', { video_url: 'dQw4w9WgXcQ' })).toEqual([402, 'E_FREE_GRANT_DEPLETED']);
    expect(await code('channel/resolve', { input: '@free' })).toEqual([200, undefined]);
    expect(await code('channel/latest', { channel: '@free' })).toEqual([200, undefined]);
    expect(sim.admin.credits()).toBe(0);
    expect(sim.admin.ledger()).toHaveLength(1);
  });

  test('after a top-up, running out again is E_PAYMENT_REQUIRED; a top-up lets the next request succeed', async () => {
    await start({ credits: 0 });
    sim.admin.topUp(1);
    expect(await code('search', { q: 'a' })).toEqual([200, undefined]);
    expect(await code('search', { q: 'a' })).toEqual([402, 'E_PAYMENT_REQUIRED']);
    sim.admin.topUp(5);
    expect(await code('search', { q: 'a' })).toEqual([200, undefined]);
    expect(sim.admin.credits()).toBe(4);
  });

  test('a paused plan answers E_SUBSCRIPTION_PAUSED even with credits, until resumed', async () => {
    await start({ credits: 50 });
    sim.admin.setPlan('paused');
    expect(await code('transcript', { video_url: 'dQw4w9WgXcQ' })).toEqual([402, 'E_SUBSCRIPTION_PAUSED']);
    expect(await code('channel/resolve', { input: '@free' })).toEqual([200, undefined]);
    sim.admin.setPlan('paid');
    expect(await code('transcript', { video_url: 'dQw4w9WgXcQ' })).toEqual([200, undefined]);
    expect(sim.admin.credits()).toBe(49);
  });

  test('reset restores the starting credits and plan and clears ledger, log and faults', async () => {
    await start({ credits: 1 });
    await api(sim, 'search', { q: 'a' });
    sim.admin.addFault({ kind: 'status', status: 500 });
    sim.admin.reset();
    expect(sim.admin.credits()).toBe(1);
    expect(sim.admin.ledger()).toEqual([]);
    expect(sim.admin.requests()).toEqual([]);
    expect(await code('search', { q: 'a' })).toEqual([200, undefined]);
    expect(await code('search', { q: 'a' })).toEqual([402, 'E_FREE_GRANT_DEPLETED']);
  });
});

describe('admin over HTTP', () => {
  const post = (path: string, body?: unknown) =>
    fetch(`${sim.url}/__admin/${path}`, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  test('reads and drives the same state as the admin object', async () => {
    await start({ credits: 1 });
    await api(sim, 'search', { q: 'a' });
    expect(await (await fetch(`${sim.url}/__admin/credits`)).json()).toEqual({ credits: 0 });
    expect(await (await fetch(`${sim.url}/__admin/ledger`)).json()).toHaveLength(1);
    expect(await (await fetch(`${sim.url}/__admin/stats`)).json()).toMatchObject({ requests: 1, charged: 1 });
    expect(await (await fetch(`${sim.url}/__admin/requests`)).json()).toMatchObject([
      { path: '/api/v2/search', status: 200 },
    ]);

    expect((await post('topup', { credits: 3 })).status).toBe(200);
    expect(sim.admin.credits()).toBe(3);
    await post('plan', { state: 'paused' });
    expect(await code('search', { q: 'a' })).toEqual([402, 'E_SUBSCRIPTION_PAUSED']);
    await post('plan', { state: 'paid' });

    await post('faults', { kind: 'status', status: 502, match: { endpoint: 'search' } });
    expect((await api(sim, 'search', { q: 'a' })).status).toBe(502);
    await fetch(`${sim.url}/__admin/faults`, { method: 'DELETE' });
    expect((await api(sim, 'search', { q: 'a' })).status).toBe(200);

    await post('reset');
    expect(sim.admin.credits()).toBe(1);
  });

  test('refuses a bad body with 400 and a reason', async () => {
    await start();
    const reply = await post('topup', { credits: -1 });
    expect(reply.status).toBe(400);
    expect((await post('faults', { kind: 'explode' })).status).toBe(400);
    expect((await post('plan', 'not json')).status).toBe(400);
    expect(sim.admin.credits()).toBe(100);
  });
});
