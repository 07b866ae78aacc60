/**
 * What Scriptorium writes always verifies, whatever the service sends (issue 24), and every video
 * bought is in the corpus (issue 26, item 2): a service answers list items with fields of the wrong
 * types, odd positions, hostile texts and transcripts with absurd times; the real export writes its
 * ZIP, and `verify` must find it sound and Python's zipfile must read every video in it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp, verifyCorpus } from '../../src/core/app';
import type { ExportFormat } from '../../src/shared/contract';
import type { Filters } from '../../src/shared/filters';
import { FastClock } from '../core/engine/helpers';
import { readZip, runCli, tempDir } from '../support/cli';
import { startHostileService, type HostileScript, type HostileService } from '../support/hostile-service';

const KEY = 'sk_hostile_export_test_0123';
const PLAYLIST = 'PLhostileScripted0001';

let service: HostileService | undefined;
let dir: string | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Exports PLAYLIST from a service answering `script`, with `options`; returns the ZIP's path and the run. */
async function exportFrom(script: HostileScript, options: string[] = []) {
  service = await startHostileService('scripted', script);
  dir = tempDir('scriptorium-hostile-export-');
  const out = join(dir, 'corpus.zip');
  const env = {
    TRANSCRIPT_API_KEY: KEY,
    TRANSCRIPT_API_BASE_URL: service.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
  const run = await runCli(['export', PLAYLIST, '--out', out, ...options], env);
  return { out, run };
}

const videoId = (i: number) => `hostileVid${i}`;

describe('positions from the service are data, never row keys (issue 26, item 2)', () => {
  it('every video of a list with negative positions is in index.csv and txt/, and the corpus verifies', async () => {
    const listItems = [-5, -4, -3, -2].map((index, i) => ({
      type: 'video',
      index,
      video_id: videoId(i),
      title: `Video ${i}`,
    }));
    const { out, run } = await exportFrom({ listItems });
    expect(run.code, run.stderr).toBe(0);
    const zip = await readZip(out);
    expect(zip.manifest.counts).toMatchObject({ videos: 4, ok: 4 });
    expect(zip.index.slice(1).map((row) => row[0])).toEqual([0, 1, 2, 3].map(videoId));
    expect(Object.keys(zip.files).filter((name) => name.startsWith('txt/'))).toHaveLength(4);
    const verify = await runCli(['verify', out]);
    expect(verify.code, verify.stdout).toBe(0);
  });

  it('list items with garbage fields and filters set: the manifest and index.csv count the same videos', async () => {
    const listItems = [
      { video_id: videoId(0), title: 42, index: -1e300, lengthText: {}, has_captions: 'yes' },
      { video_id: videoId(1), title: null, index: '-7', viewCountText: [1], publishedTimeText: 3 },
      { video_id: videoId(2), title: '../../etc/passwd', index: 2.5, lengthText: '99:99:99:99' },
      { video_id: videoId(3), title: '\u202egnp.exe\u001b[2J', index: 1e300, lengthText: '-5:00' },
    ];
    const { out, run } = await exportFrom({ listItems }, ['--min-duration', '10', '--match-title', '.']);
    expect(run.code, run.stderr).toBe(0);
    const zip = await readZip(out);
    expect(zip.index.length - 1).toBe(zip.manifest.counts.videos);
    expect(zip.manifest.counts.videos).toBe(4);
    const verify = await runCli(['verify', out]);
    expect(verify.code, verify.stdout).toBe(0);
  });
});

// ---- The property: whatever the service sends, what is written verifies ----

const SEED = 24_026_002;

/** Texts a broken or hostile service might send: controls, bidi, traversal, formulas, very long. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({
    unit: fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
    maxLength: 20,
  }),
  fc.constantFrom(
    '../../etc/passwd',
    '..',
    '/abs/path',
    'C:\\Windows\\x',
    'CON',
    'nul.txt',
    '\u202egnp.exe',
    '\u001b[2J\u001b]0;owned\u0007',
    'a\u0000b',
    '\ud800 lone',
    '=HYPERLINK("http://x")',
    '👨‍👩‍👧‍👦 日本 é',
    'x'.repeat(400),
  ),
);
/** A field of any type. */
const anyValue = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant({ nested: 'object' }),
  fc.constant([1, 'a']),
);
const position = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true }),
  fc.constantFrom(1e300, -1e300, 2.5, '-7', '3', '', 'x', null, true),
);
const seconds = fc.oneof(
  fc.double({ min: 0, max: 100_000, noNaN: true }),
  fc.constantFrom(1.7e308, 1e12, -5, 'NaN', '18.0', '-1', null),
);

/** A video id as a list may give it: an ordinary one (made unique by its place), or anything. */
const listedId = (place: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(`hostile${String(place).padStart(4, '0')}`) },
    { weight: 2, arbitrary: hostileText.filter((text) => text.length > 0) },
    { weight: 1, arbitrary: fc.constantFrom(42, null) },
  );

const listItem = (place: number) =>
  fc
    .record(
      {
        id: listedId(place),
        snake: fc.boolean(),
        title: anyValue,
        index: position,
        lengthText: fc.oneof(anyValue, fc.constantFrom('12:34', '1:02:03', '99:99:99', '-5:00', '0')),
        viewCountText: fc.oneof(anyValue, fc.constantFrom('1,234 views', '-3 views', '1e309 views')),
        publishedTimeText: fc.oneof(anyValue, fc.constantFrom('3 weeks ago', '2024-02-30', '9999-01-01')),
        channelTitle: anyValue,
        hasCaptions: anyValue,
      },
      { requiredKeys: ['id', 'snake'] },
    )
    .map(({ id, snake, ...fields }) =>
      snake ? { video_id: id, ...snakeCase(fields) } : { videoId: id, ...fields },
    );

function snakeCase(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value,
    ]),
  );
}

const segment = fc.record(
  {
    text: fc.oneof({ weight: 5, arbitrary: hostileText }, { weight: 1, arbitrary: anyValue }),
    start: seconds,
    duration: seconds,
  },
  { requiredKeys: ['text'] },
);
const transcriptBody = fc.record(
  {
    video_id: anyValue,
    language: fc.oneof(fc.constantFrom('en', 'pt-BR'), anyValue),
    transcript: fc.oneof(
      { weight: 6, arbitrary: fc.array(segment, { maxLength: 12 }) },
      {
        weight: 1,
        arbitrary: fc.constant(
          Array.from({ length: 300 }, (_, i) => ({ text: `line ${i}`, start: i, duration: 1 })),
        ),
      },
      { weight: 1, arbitrary: anyValue },
    ),
    metadata: fc.oneof(
      fc.record({ title: anyValue, author_name: anyValue, author_url: anyValue, thumbnail_url: anyValue }),
      anyValue,
    ),
  },
  { requiredKeys: ['transcript'] },
);

const filters: fc.Arbitrary<Filters> = fc.record(
  {
    matchTitle: fc.constantFrom('.', 'a', '^V', '[0-9]', '\\p{L}'),
    rejectTitle: fc.constantFrom('z', 'trailer|teaser', '^$'),
    minDuration: fc.integer({ min: 0, max: 600 }),
    items: fc.constantFrom('1-3', '-2:', '2', '1:10:2', '-1', '1,3-5'),
    publishedAfter: fc.constantFrom('2024-01-01', '2030-12-31'),
    skipUncaptioned: fc.boolean(),
  },
  { requiredKeys: [] },
);

const FORMATS: ExportFormat[] = ['txt', 'json', 'srt', 'vtt', 'chunks'];

const scenario = fc.integer({ min: 0, max: 8 }).chain((count) =>
  fc.record({
    listItems: fc.tuple(...Array.from({ length: count }, (_, place) => listItem(place))),
    bodies: fc.array(transcriptBody, { minLength: count, maxLength: count }),
    filters: fc.option(filters, { nil: undefined }),
  }),
);

/** Runs a job over a service answering `script`, through the application's contract, and exports it. */
async function exportInProcess(script: HostileScript, jobFilters: Filters | undefined): Promise<string> {
  service = await startHostileService('scripted', script);
  dir = tempDir('scriptorium-hostile-property-');
  const app = openApp({
    dataDir: join(dir, 'data'),
    keys: memoryKeyStore({ key: KEY, serviceUrl: service.url }),
    serviceUrl: service.url,
    clock: new FastClock(),
  });
  try {
    const api = localApi(app);
    const { job } = await api.createJob({
      draft: {
        sources: [
          { where: 'argument 1', text: PLAYLIST },
          { where: 'argument 2', text: 'dQw4w9WgXcQ' },
        ],
        languages: 'orig',
        includeTimestamp: true,
        sendMetadata: true,
        maxVideos: null,
        budget: null,
        concurrency: 4,
        formats: FORMATS,
        ...(jobFilters !== undefined && { filters: jobFilters }),
      },
      start: false,
    });
    await api.runJob({ jobId: job.id });
    const out = join(dir, 'corpus.zip');
    await api.exportJob({ jobId: job.id, formats: FORMATS, destination: out });
    return out;
  } finally {
    await app.close();
  }
}

describe('what Scriptorium writes always verifies (issue 24)', () => {
  it('a service answering list items and transcripts of any shape: verify finds every corpus sound', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ listItems, bodies, filters: jobFilters }) => {
        try {
          const byId = new Map<unknown, unknown>();
          for (const [place, item] of listItems.entries()) {
            const id = 'video_id' in item ? item.video_id : item.videoId;
            if (!byId.has(id)) byId.set(id, bodies[place]);
          }
          const out = await exportInProcess(
            {
              listItems,
              transcript: (id) => byId.get(id) ?? { transcript: [{ text: 'fine', start: 0, duration: 1 }] },
            },
            jobFilters,
          );
          const report = await verifyCorpus(out);
          expect(report.differences).toEqual([]);
          const zip = await readZip(out);
          expect(zip.path_problems).toEqual([]);
          expect(zip.index.length - 1).toBe(zip.manifest.counts.videos);
        } finally {
          await service?.close();
          service = undefined;
          if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
          dir = undefined;
        }
      }),
      { seed: SEED, numRuns: 30 },
    );
  }, 300_000);
});
