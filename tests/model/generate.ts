/**
 * How the model draws its sequences (fast-check arbitraries): jobs with every option of export, the
 * faults the service can answer, the world changing (uploads, playlists edited, the clock, credits),
 * and the orders that matter drawn more often than chance would: a fault then an export, an upload
 * then a sync then a retry then an export again, a kill then the resume.
 */
import fc from 'fast-check';
import {
  canonical,
  CHANNELS,
  EDITABLE,
  kindOf,
  LISTS,
  LONG,
  SEARCH,
  typed,
  VIDEOS,
  type SourceForm,
} from './catalog';
import type { ItemsPart, ItemsSpec, JobArgs } from './selection';
import type { Citation, ExportHow, FaultSpec, Step } from './steps';

/** A step naming `LAST` means the job the latest export step ran. */
export const LAST = -1;

const formArb = fc.constantFrom<SourceForm>('id', 'id', 'id', 'url', 'uc', 'ucUrl', 'tab');

const sourceArb = fc
  .tuple(fc.constantFrom(...LISTS, ...LISTS, ...VIDEOS, SEARCH), formArb)
  .map(([source, form]) => typed(source, form));

const itemsPartArb: fc.Arbitrary<ItemsPart> = fc.oneof(
  fc.integer({ min: 1, max: 14 }).map((at) => ({ at })),
  fc.integer({ min: 1, max: 4 }).map((last) => ({ at: -last })),
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 9 }))
    .map(([from, more]) => ({ from, to: from + more })),
  fc.integer({ min: 1, max: 5 }).map((last) => ({ start: -last })),
  fc.integer({ min: 2, max: 9 }).map((start) => ({ start })),
  fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 6, max: 20 }), fc.integer({ min: 2, max: 3 }))
    .map(([start, stop, step]) => ({ start, stop, step })),
);

const itemsArb: fc.Arbitrary<ItemsSpec> = fc
  .array(itemsPartArb, { minLength: 1, maxLength: 3 })
  .map((parts) => ({ parts }));

/** Language lists: fallbacks, `zh` beside `zh-Hans`, several tracks of one video across jobs. */
const langArb = fc.constantFrom('en', 'es,en,orig', 'zh-Hans,orig', 'zh,en', 'fr,de', 'pt-BR,pt,orig', 'ja');

export const jobArb: fc.Arbitrary<JobArgs> = fc
  .record(
    {
      // One command names a source once (a repeat, in any form, is reported and left out).
      sources: fc.uniqueArray(sourceArb, {
        minLength: 1,
        maxLength: 4,
        selector: (source) => `${kindOf(source)}|${canonical(source)}`,
      }),
      lang: langArb,
      noTimestamps: fc.constant(true),
      noMetadata: fc.constant(true),
      maxVideos: fc.integer({ min: 2, max: 24 }),
      items: itemsArb,
      matchTitle: fc.constantFrom('river|light', 'engine|story|the'),
      rejectTitle: fc.constantFrom('question', 'answer|morning'),
      minDuration: fc.constantFrom(60, 300, 900),
      maxDuration: fc.constantFrom(1200, 2400),
      publishedAfter: fc.constantFrom('2019-01-01', '2022-06-15', '2026-11-01'),
      publishedBefore: fc.constantFrom('2024-03-01', '2025-02-10', '2026-12-31'),
      publishedOverlap: fc.constant(true),
      skipUncaptioned: fc.constant(true),
      formats: fc.constantFrom('txt', 'txt,json', 'json,srt,vtt', 'txt,json,srt,vtt,chunks', 'chunks,txt'),
      chunkSeconds: fc.constantFrom(20, 60, 300),
      chunkOverlap: fc.constantFrom(0, 5, 10),
    },
    { requiredKeys: ['sources', 'formats'] },
  )
  .map((job) => {
    const { publishedOverlap, noTimestamps, chunkSeconds, chunkOverlap, publishedBefore, ...rest } = job;
    const dated = job.publishedAfter !== undefined || publishedBefore !== undefined;
    // A window whose start is after its end is refused (the `refused` step asks for that on purpose).
    const before =
      publishedBefore !== undefined && publishedBefore >= (job.publishedAfter ?? '')
        ? publishedBefore
        : undefined;
    const long = job.sources.some((source) => source.includes(LONG) || source.includes('Long'));
    const timed = noTimestamps === undefined;
    const chunked = timed && job.formats.includes('chunks');
    return {
      ...rest,
      // Without timestamps only txt and json can be written (srt, vtt and chunks are refused).
      formats: timed ? job.formats : 'txt,json',
      ...(before !== undefined && { publishedBefore: before }),
      ...(!timed && { noTimestamps }),
      ...(dated && publishedOverlap !== undefined && { publishedOverlap }),
      ...(chunked && chunkSeconds !== undefined && { chunkSeconds }),
      ...(chunked &&
        chunkSeconds !== undefined &&
        chunkOverlap !== undefined &&
        chunkOverlap < chunkSeconds && { chunkOverlap }),
      // A search brings 50 videos without a cap, a long list 255: most are capped.
      ...((job.sources.includes(SEARCH) || long) && job.maxVideos === undefined && { maxVideos: 12 }),
    };
  });

const citationArb: fc.Arbitrary<Citation> = fc
  .record(
    {
      authors: fc.constantFrom<string[]>(['Ada Lovelace'], ['Hopper, Grace', 'Alan Turing']),
      withOrcid: fc.boolean(),
      license: fc.constantFrom('CC-BY-4.0', 'ODbL-1.0', 'MIT', 'GPL-3.0-only', '0BSD'),
      title: fc.constantFrom('Rivers of speech', 'A corpus kept current'),
      description: fc.constantFrom('What people say about rivers.', 'Two lines:\nthe second one.'),
    },
    { requiredKeys: [] },
  )
  .map(({ withOrcid, ...citation }) => ({
    ...citation,
    ...(withOrcid === true && citation.authors !== undefined && { orcids: ['0000-0002-1825-0097'] }),
  }));

const howArb: fc.Arbitrary<ExportHow> = fc.record(
  {
    citation: citationArb,
    out: fc.constantFrom<'same' | 'new'>('same', 'same', 'new'),
    formats: fc.constantFrom('txt', 'json,vtt', 'txt,json,srt,vtt,chunks'),
    budget: fc.integer({ min: 0, max: 40 }),
    concurrency: fc.constantFrom(1, 2, 8),
    from: fc.constantFrom<'file' | 'csv'>('file', 'csv'),
  },
  { requiredKeys: ['out'] },
);

const faultArb: fc.Arbitrary<FaultSpec> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      status: fc.constantFrom<404 | 500 | 503>(404, 500, 503),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('retryable' as const),
      status: fc.constantFrom<408 | 429 | 502>(408, 429, 502),
      times: fc.integer({ min: 1, max: 3 }),
      retryAfter: fc.constantFrom<'seconds' | 'date'>('seconds', 'date'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('body' as const),
      body: fc.constantFrom<'malformed' | 'truncated'>('malformed', 'truncated'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      endpoint: fc.constantFrom<'playlist/videos' | 'channel/videos'>('playlist/videos', 'channel/videos'),
      status: fc.constantFrom<404 | 500 | 503>(404, 500, 503),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('key' as const), status: fc.constantFrom<401 | 403>(401, 403) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('storm' as const), count: fc.integer({ min: 10, max: 14 }) }),
  },
);

const jobIndexArb = fc.oneof(fc.constant(LAST), fc.nat(9));

const DAY = 86_400_000;
const clockArb = fc.constantFrom(
  40 * 60_000,
  5 * 3_600_000,
  2 * DAY,
  9 * DAY,
  45 * DAY,
  200 * DAY,
  400 * DAY,
);

const step = {
  export: fc.tuple(jobArb, howArb).map(([job, how]): Step => ({ op: 'export', job, ...how })),
  again: fc.tuple(jobIndexArb, howArb).map(([job, how]): Step => ({ op: 'exportAgain', job, ...how })),
  retry: fc
    .tuple(jobIndexArb, fc.constantFrom<'failed' | 'unavailable'>('failed', 'unavailable'))
    .map(([job, retry]): Step => ({ op: 'exportAgain', job, out: 'same', retry })),
  preview: jobArb.map((job): Step => ({ op: 'preview', job })),
  upload: fc
    .tuple(fc.constantFrom<'A' | 'B' | 'L'>('A', 'B', 'B', 'L'), fc.integer({ min: 1, max: 14 }))
    .map(([channel, count]): Step => ({ op: 'upload', channel, count })),
  edit: fc
    .tuple(
      fc.nat(EDITABLE.length - 1),
      fc.oneof(
        fc.integer({ min: 1, max: 12 }).map((count) => ({ kind: 'append' as const, count })),
        fc.integer({ min: 1, max: 9 }).map((position) => ({ kind: 'remove' as const, position })),
        fc
          .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }))
          .map(([from, to]) => ({ kind: 'move' as const, from, to })),
      ),
    )
    .map(([playlist, edit]): Step => ({ op: 'editPlaylist', playlist, edit })),
  sync: jobIndexArb.map((job): Step => ({ op: 'sync', job })),
  keep: fc
    .tuple(jobIndexArb, fc.boolean())
    .map(([job, off]): Step => ({ op: 'keep', job, ...(off && { off }) })),
  syncAll: fc
    .record({ any: fc.boolean(), dailyLimit: fc.integer({ min: 1, max: 30 }) }, { requiredKeys: [] })
    .map((options): Step => ({ op: 'syncAll', ...options })),
  fault: fc.tuple(faultArb, fc.nat(999)).map(([fault, pick]): Step => ({ op: 'fault', fault, pick })),
  account: fc
    .tuple(
      fc.integer({ min: 0, max: 6 }),
      fc.constantFrom<'grant' | 'paid' | 'paused'>('grant', 'paid', 'paused'),
    )
    .map(([credits, plan]): Step => ({ op: 'account', credits, plan })),
  topUp: fc.constant<Step>({ op: 'topUp' }),
  clock: clockArb.map((advanceMs): Step => ({ op: 'clock', advanceMs })),
  search: fc
    .record(
      {
        word: fc.constantFrom('river', 'engine', 'light', 'morning'),
        job: jobIndexArb,
        lang: fc.constantFrom('en', 'es', 'zh'),
      },
      { requiredKeys: ['word'] },
    )
    .map((search): Step => ({ op: 'search', ...search })),
  kill: fc
    .record({
      job: jobIndexArb,
      signal: fc.constantFrom<'SIGINT' | 'SIGTERM' | 'force' | 'SIGKILL'>(
        'SIGINT',
        'SIGTERM',
        'force',
        'SIGKILL',
      ),
      atRequest: fc.integer({ min: 1, max: 12 }),
    })
    .map((kill): Step => ({ op: 'kill', ...kill })),
  busy: jobIndexArb.map((job): Step => ({ op: 'busy', job })),
  refused: fc
    .tuple(
      jobArb,
      fc.constantFrom('srtWithoutTimestamps', 'overlapTooLong', 'badItems', 'badDate') as fc.Arbitrary<
        'srtWithoutTimestamps' | 'overlapTooLong' | 'badItems' | 'badDate'
      >,
    )
    .map(([job, problem]): Step => ({ op: 'refused', job, problem })),
};

const single = (arb: fc.Arbitrary<Step>): fc.Arbitrary<Step[]> => arb.map((one) => [one]);

/** Orders that matter, each drawn as one piece: the seams where features meet. */
const chains: Array<fc.Arbitrary<Step[]>> = [
  // A fault, an export, an upload, a sync, a retry, an export again.
  fc
    .tuple(step.fault, step.export, step.upload, step.retry, step.again)
    .map(([fault, exported, upload, retry, again]) => [
      fault,
      exported,
      upload,
      { op: 'sync', job: LAST },
      { ...retry, job: LAST } as Step,
      { ...again, job: LAST } as Step,
    ]),
  // A playlist edited or a clock moved between an export and its sync.
  fc
    .tuple(step.export, fc.oneof(step.edit, step.clock, step.upload), step.again)
    .map(([exported, change, again]) => [
      exported,
      change,
      { op: 'sync', job: LAST },
      { ...again, job: LAST } as Step,
    ]),
  // A run stopped midway (a kill, the budget, credits) and its resume.
  fc
    .tuple(step.export, step.kill, step.again)
    .map(([exported, kill, again]) => [
      { ...exported, out: 'same' } as Step,
      { ...kill, job: LAST } as Step,
      { ...again, job: LAST, out: 'same' } as Step,
    ]),
  fc
    .tuple(jobArb, fc.integer({ min: 0, max: 12 }), step.account)
    .map(([job, budget, account]) => [
      account,
      { op: 'export', job, out: 'same', budget } as Step,
      { op: 'topUp' } as Step,
      { op: 'exportAgain', job: LAST, out: 'same', budget: budget + 200 } as Step,
    ]),
];

/** Single steps by weight: exports and syncs most, since features meet where jobs are exported and synced. */
const singles: Array<{ weight: number; arbitrary: fc.Arbitrary<Step[]> }> = [
  { weight: 6, arbitrary: single(step.export) },
  { weight: 5, arbitrary: single(step.again) },
  { weight: 2, arbitrary: single(step.retry) },
  { weight: 4, arbitrary: single(step.sync) },
  { weight: 3, arbitrary: single(step.upload) },
  { weight: 2, arbitrary: single(step.edit) },
  { weight: 3, arbitrary: single(step.fault) },
  { weight: 2, arbitrary: single(step.clock) },
  { weight: 1, arbitrary: single(step.preview) },
  { weight: 1, arbitrary: single(step.keep) },
  { weight: 1, arbitrary: single(step.syncAll) },
  { weight: 1, arbitrary: single(step.account) },
  { weight: 1, arbitrary: single(step.topUp) },
  { weight: 1, arbitrary: single(step.search) },
  { weight: 1, arbitrary: single(step.kill) },
  { weight: 1, arbitrary: single(step.busy) },
  { weight: 1, arbitrary: single(step.refused) },
];

/** A sequence: the simulator's page size, and its steps. */
export interface Sequence {
  pageSize: number;
  steps: Step[];
}

export function sequenceArb(maxPieces: number): fc.Arbitrary<Sequence> {
  return fc.record({
    pageSize: fc.constantFrom(100, 10, 10, 7, 7, 5),
    steps: fc
      .array(fc.oneof(...singles, ...chains.map((arbitrary) => ({ weight: 3, arbitrary }))), {
        minLength: 1,
        maxLength: maxPieces,
      })
      .map((pieces) => pieces.flat()),
  });
}

export { CHANNELS };
