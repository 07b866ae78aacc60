/**
 * The operations the model runs, as plain data (so that a failing sequence can be recorded and
 * replayed), the sources they draw from, and how a step becomes a command line.
 */
import fc from 'fast-check';
import { channelIdForHandle, describeChannel, describePlaylist } from '../../src/simulator';
import type { Citation } from './reference';
import { itemsText, type ItemsSpec, type JobArgs } from './selection';

export type Step =
  | { op: 'export'; job: JobArgs; citation?: Citation; out: 'same' | 'new' }
  | {
      op: 'exportAgain';
      job: number;
      citation?: Citation;
      out: 'same' | 'new';
      retry?: 'failed' | 'unavailable';
    }
  | { op: 'upload'; channel: 'A' | 'B'; count: number }
  | { op: 'sync'; job: number }
  | { op: 'keep'; job: number }
  | { op: 'syncAll' }
  | { op: 'fault'; status: 404 | 500; pick: number };

export const CHANNELS = { A: '@modelChannelA_n12', B: '@modelChannelB_n26' } as const;
const uploadsOf = (handle: string): string => `UU${channelIdForHandle(handle).slice(2)}`;
/** Two playlists of one pool: videos 6 to 10 are in both, at other positions. */
const POOLED = ['PLpoolModel_from1_n10', 'PLpoolModel_from6_n12'] as const;
const PLAIN = 'PLmodelPlainListing_n7';

/** Every list the sources draw from (a search aside). */
export const LISTS: readonly string[] = [
  CHANNELS.A,
  CHANNELS.B,
  uploadsOf(CHANNELS.A),
  uploadsOf(CHANNELS.B),
  ...POOLED,
  PLAIN,
];

/** Videos given alone: one in both pooled playlists, one of channel A, one without captions, one in no list. */
export const VIDEOS: readonly string[] = [
  describePlaylist(POOLED[0]).videoIds()[6]!,
  describeChannel(CHANNELS.A).videoIds()[2]!,
  'nocapModel1',
  'standAlone1',
];

const SEARCH = 'search:river engine';

const itemsArb: fc.Arbitrary<ItemsSpec> = fc.record(
  {
    ranges: fc.array(
      fc
        .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 8 }))
        .map(([from, more]) => [from, from + more] as [number, number]),
      { minLength: 1, maxLength: 2 },
    ),
    last: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: ['ranges'] },
);

export const jobArb: fc.Arbitrary<JobArgs> = fc
  .record(
    {
      sources: fc.shuffledSubarray([...LISTS, ...VIDEOS, SEARCH], { minLength: 1, maxLength: 4 }),
      maxVideos: fc.integer({ min: 3, max: 20 }),
      items: itemsArb,
      matchTitle: fc.constantFrom('river|light', 'engine|story|the'),
      rejectTitle: fc.constantFrom('question', 'answer|morning'),
      minDuration: fc.constantFrom(60, 300, 900),
      maxDuration: fc.constantFrom(1200, 2400),
      publishedAfter: fc.constantFrom('2019-01-01', '2022-06-15'),
      publishedBefore: fc.constantFrom('2024-03-01', '2025-02-10'),
      publishedOverlap: fc.constant(true),
      skipUncaptioned: fc.constant(true),
      formats: fc.constantFrom('txt', 'txt,json', 'json,srt,vtt', 'txt,json,srt,vtt,chunks'),
    },
    { requiredKeys: ['sources', 'formats'] },
  )
  .map((job) => {
    const { publishedOverlap, ...rest } = job;
    const dated = job.publishedAfter !== undefined || job.publishedBefore !== undefined;
    // --published-overlap goes with a date window; a search brings 50 videos without a cap.
    return {
      ...rest,
      ...(dated && publishedOverlap !== undefined && { publishedOverlap }),
      ...(job.sources.includes(SEARCH) && job.maxVideos === undefined && { maxVideos: 6 }),
    };
  });

const citationArb: fc.Arbitrary<Citation> = fc.record(
  {
    authors: fc.constantFrom(['Ada Lovelace'], ['Hopper, Grace', 'Alan Turing']),
    license: fc.constantFrom('CC-BY-4.0', 'ODbL-1.0', 'MIT'),
    title: fc.constantFrom('Rivers of speech', 'A corpus kept current'),
    description: fc.constantFrom('What people say about rivers.', 'Two lines:\nthe second one.'),
  },
  { requiredKeys: [] },
);

const outArb = fc.constantFrom<'same' | 'new'>('same', 'same', 'new');

const exportArb = fc.record(
  { op: fc.constant('export' as const), job: jobArb, citation: citationArb, out: outArb },
  { requiredKeys: ['op', 'job', 'out'] },
);
const exportAgainArb = fc.record(
  {
    op: fc.constant('exportAgain' as const),
    job: fc.nat(9),
    citation: citationArb,
    out: outArb,
    retry: fc.constantFrom<'failed' | 'unavailable'>('failed', 'unavailable'),
  },
  { requiredKeys: ['op', 'job', 'out'] },
);
const syncArb = fc.record({ op: fc.constant('sync' as const), job: fc.nat(9) });

/** The steps, exports and syncs twice as likely as the rest: features meet where jobs are exported and synced. */
export const stepArbs: Array<fc.Arbitrary<Step>> = [
  exportArb,
  exportArb,
  exportAgainArb,
  exportAgainArb,
  syncArb,
  syncArb,
  fc.record({
    op: fc.constant('upload' as const),
    channel: fc.constantFrom<'A' | 'B'>('A', 'B'),
    count: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ op: fc.constant('keep' as const), job: fc.nat(9) }),
  fc.constant({ op: 'syncAll' as const }),
  fc.record({
    op: fc.constant('fault' as const),
    status: fc.constantFrom<404 | 500>(404, 500),
    pick: fc.nat(999),
  }),
];

/** The options of `export` that say what the job is, and its formats. */
export function jobFlags(job: JobArgs): string[] {
  const flags: Array<[string, string | number | boolean | undefined]> = [
    ['--max-videos', job.maxVideos],
    ['--items', job.items === undefined ? undefined : itemsText(job.items)],
    ['--match-title', job.matchTitle],
    ['--reject-title', job.rejectTitle],
    ['--min-duration', job.minDuration],
    ['--max-duration', job.maxDuration],
    ['--published-after', job.publishedAfter],
    ['--published-before', job.publishedBefore],
    ['--published-overlap', job.publishedOverlap],
    ['--skip-uncaptioned', job.skipUncaptioned],
    ['--formats', job.formats],
  ];
  return flags.flatMap(([flag, value]) =>
    value === undefined || value === false ? [] : value === true ? [flag] : [flag, String(value)],
  );
}

export function citationFlags(citation: Citation | undefined): string[] {
  if (citation === undefined) return [];
  return [
    ...(citation.authors ?? []).flatMap((author) => ['--author', author]),
    ...(citation.license === undefined ? [] : ['--license', citation.license]),
    ...(citation.title === undefined ? [] : ['--title', citation.title]),
    ...(citation.description === undefined ? [] : ['--description', citation.description]),
  ];
}
