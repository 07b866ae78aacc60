import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../src/core/app';
import { CONCORDANCE_LINES, createConcordanceStore } from '../../src/renderer/src/stores/concordance';
import { createLibraryStore, SEARCH_DELAY_MS } from '../../src/renderer/src/stores/library';
import { createReaderStore } from '../../src/renderer/src/stores/reader';
import type { CommandInput, CommandOutput, ScriptoriumApi } from '../../src/shared/contract';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { tempDir } from '../support/cli';

// The Library's stores over the real dispatch and a library bought from the real simulator. Only the
// timing is the test's: its timers fire when it says, and its gate hands each search's answer to the
// store when it says, so that answers can come back in any order.

let sim: RunningSimulator;
let dir: string;
let app: ScriptoriumApp;
let api: ScriptoriumApi;

beforeAll(async () => {
  sim = await startSimulator({ credits: 1_000 });
  dir = tempDir();
  app = openApp({
    dataDir: dir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
  });
  api = localApi(app);
  const draft = {
    sources: [{ where: 'line 1', text: 'PLlibraryCorpus3_n10' }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 4,
    formats: ['txt' as const],
  };
  const { job } = await api.createJob({ draft, start: false });
  expect((await api.runJob({ jobId: job.id })).outcome.status).toBe('completed');
});

afterAll(async () => {
  await app.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Timers that fire only when the test says: the debounce, without waiting for it. */
function manualTimers() {
  const waiting = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  return {
    timers: {
      setTimeout: ((run: () => void, ms: number) => {
        next += 1;
        waiting.set(next, { run, ms });
        return next;
      }) as unknown as typeof setTimeout,
      clearTimeout: ((id: number) => void waiting.delete(id)) as unknown as typeof clearTimeout,
    },
    delays: () => [...waiting.values()].map((timer) => timer.ms),
    fireAll() {
      const due = [...waiting.values()];
      waiting.clear();
      due.forEach((timer) => timer.run());
    },
  };
}

/** The real api, with each search's answer held until the test releases it. */
function gatedApi() {
  const held: Array<{ query: string; release: () => void; answered: Promise<void> }> = [];
  const gated: ScriptoriumApi = {
    ...api,
    searchTranscripts: (input: CommandInput<'searchTranscripts'>) => {
      const answer = api.searchTranscripts(input);
      let release = () => {};
      const open = new Promise<void>((resolve) => (release = resolve));
      const result = open.then(() => answer);
      held.push({
        query: input.query,
        release,
        answered: result.then(
          () => undefined,
          () => undefined,
        ),
      });
      return result as Promise<CommandOutput<'searchTranscripts'>>;
    },
  };
  return { api: gated, held };
}

describe('the Library search store', () => {
  it('searches once typing pauses, with the words and filters as typed', async () => {
    const clock = manualTimers();
    const gate = gatedApi();
    const store = createLibraryStore(gate.api, clock.timers);
    for (const typed of ['r', 'ri', 'riv', 'rive', 'river']) store.getState().setQuery(typed);
    store.getState().setFilters({ language: ' en ' });
    expect(store.getState().searching).toBe(true);
    expect(clock.delays()).toEqual([SEARCH_DELAY_MS]);
    expect(gate.held).toHaveLength(0);

    clock.fireAll();
    expect(gate.held.map((search) => search.query)).toEqual(['river']);
    gate.held[0]?.release();
    await gate.held[0]?.answered;
    await Promise.resolve();
    const { answer, searching } = store.getState();
    expect(searching).toBe(false);
    expect(answer?.request).toEqual({ query: 'river', jobId: null, language: 'en', channel: null });
    expect(answer?.result.hits).toBeGreaterThan(0);
    expect(answer?.result.groups.every((group) => group.language === 'en')).toBe(true);
  });

  it('keeps the answer to the latest search when an older one comes back after it', async () => {
    const clock = manualTimers();
    const gate = gatedApi();
    const store = createLibraryStore(gate.api, clock.timers);
    store.getState().setQuery('engine');
    clock.fireAll();
    store.getState().setQuery('river');
    clock.fireAll();
    const [older, newer] = gate.held;
    newer?.release();
    await newer?.answered;
    await Promise.resolve();
    older?.release();
    await older?.answered;
    await Promise.resolve();
    const { answer } = store.getState();
    expect(answer?.request.query).toBe('river');
    const words = answer?.result.groups.flatMap((group) =>
      group.hits.flatMap((hit) =>
        hit.snippet.filter((part) => part.match).map((part) => part.text.toLowerCase()),
      ),
    );
    expect(new Set(words)).toEqual(new Set(['river']));
  });

  it('says plainly why a query cannot be read, and searches nothing for an empty one', async () => {
    const clock = manualTimers();
    const store = createLibraryStore(api, clock.timers);
    store.getState().setQuery('"river');
    clock.fireAll();
    await expect.poll(() => store.getState().searching).toBe(false);
    expect(store.getState().answer).toBeNull();
    expect(store.getState().error?.message).toMatch(/quot/i);
    expect(store.getState().error?.message).not.toMatch(/fts5|syntax/i);

    store.getState().setQuery('   ');
    expect(clock.delays()).toEqual([]);
    expect(store.getState()).toMatchObject({ searching: false, answer: null, error: null });
  });
});

describe('the Concordance store', () => {
  it('shows the order chosen last when the answer to an earlier one comes back after it', async () => {
    // The real api, each concordance's answer held until the test releases it.
    const held: Array<{ release: () => void; answered: Promise<unknown> }> = [];
    const gated: ScriptoriumApi = {
      ...api,
      libraryConcordance: (input) => {
        const answer = api.libraryConcordance(input);
        let release = () => {};
        const answered = new Promise<void>((resolve) => (release = resolve)).then(() => answer);
        held.push({ release, answered });
        return answered;
      },
    };
    const request = { query: 'river', jobId: null, language: null, channel: null };
    const asRanked = await api.libraryConcordance({
      ...request,
      context: 8,
      sort: 'relevance',
      limit: CONCORDANCE_LINES,
    });
    const byRight = await api.libraryConcordance({
      ...request,
      context: 8,
      sort: 'right',
      limit: CONCORDANCE_LINES,
    });
    expect(byRight.rows).not.toEqual(asRanked.rows);

    const store = createConcordanceStore(gated);
    void store.getState().load(request);
    store.getState().setOptions({ sort: 'right' });
    const [older, newer] = held;
    newer?.release();
    await newer?.answered;
    older?.release();
    await older?.answered;
    // Past every continuation of both answers.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.getState()).toMatchObject({ loading: false, options: { sort: 'right' } });
    expect(store.getState().answer).toEqual({
      request,
      options: { context: 8, sort: 'right' },
      result: byRight,
    });
  });
});

describe('the reader store', () => {
  it('opens a transcript at a hit and moves between its hits, staying at either end', async () => {
    const { groups } = await api.searchTranscripts({ query: 'river' });
    const group = groups[0];
    if (group === undefined) throw new Error('no group');
    const reader = createReaderStore(api);
    const second = group.hits[1]?.segment ?? -1;
    await reader.getState().show('library', group.transcriptId, 'river', second);
    const { transcript } = reader.getState();
    expect(transcript?.hits.slice(0, group.hits.length)).toEqual(group.hits.map((hit) => hit.segment));
    expect(reader.getState().current).toBe(second);

    reader.getState().nextHit();
    expect(reader.getState().current).toBe(group.hits[2]?.segment);
    reader.getState().previousHit();
    reader.getState().previousHit();
    reader.getState().previousHit();
    expect(reader.getState().current).toBe(group.hits[0]?.segment);
    const hits = transcript?.hits ?? [];
    for (let i = 0; i < hits.length + 2; i++) reader.getState().nextHit();
    expect(reader.getState().current).toBe(hits.at(-1));

    // The same transcript and words again: the reader moves, nothing is read twice.
    const before = reader.getState().transcript;
    await reader.getState().show('library', group.transcriptId, 'river', hits[0] ?? 0);
    expect(reader.getState().transcript).toBe(before);
    expect(reader.getState().current).toBe(hits[0]);
  });
});

describe('Export results in the Library store', () => {
  it('shows how many hits the app has written while it writes them', async () => {
    const clock = manualTimers();
    const store = createLibraryStore(api, clock.timers);
    const stop = app.on('searchExportProgress', (event) => store.getState().exportProgressed(event));
    const seen: Array<{ done: number; total: number } | null> = [];
    const unsubscribe = store.subscribe((state) => {
      if (state.resultsExport?.phase === 'writing') seen.push(state.resultsExport.progress);
    });
    try {
      store.getState().setQuery('river');
      clock.fireAll();
      await vi.waitFor(() => expect(store.getState().answer).not.toBeNull());
      const hits = store.getState().answer?.result.hits ?? 0;
      await store.getState().exportResults(null);
      expect(store.getState().resultsExport).toMatchObject({ phase: 'done', result: { hits } });
      expect(seen[0]).toBeNull();
      expect(seen.at(-1)).toEqual({ exportId: expect.any(String), done: hits, total: hits });
    } finally {
      unsubscribe();
      stop();
    }
  });

  it('cancels it once the app has named it: the app writes nothing, and the store says it was cancelled', async () => {
    const clock = manualTimers();
    const store = createLibraryStore(api, clock.timers);
    const named: string[] = [];
    // The user cancels as soon as the app names the export (its first progress).
    const stop = app.on('searchExportProgress', (event) => {
      named.push(event.exportId);
      store.getState().exportProgressed(event);
      void store.getState().cancelExport();
    });
    try {
      store.getState().setQuery('river');
      clock.fireAll();
      await vi.waitFor(() => expect(store.getState().answer).not.toBeNull());
      await store.getState().exportResults(null);
      expect(store.getState().resultsExport).toEqual({ phase: 'cancelled' });
      expect(named.length).toBeGreaterThan(0);
      expect(app.download(named[0] ?? '')).toBeUndefined();
      // Neither the file for download nor the one written beside it.
      const cancelled = named[0] ?? '';
      expect(readdirSync(join(dir, 'exports')).filter((name) => name.includes(cancelled))).toEqual([]);
    } finally {
      stop();
    }
  });
});
