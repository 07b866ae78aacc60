import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EXPORT_FORMATS, ExportError, ExportInterruptedError, writeCorpus } from '../../../src/core/export';
import type { ExportInput, ExportManifest, ExportVideo } from '../../../src/core/export';
import { cffSchemaPath } from '../../support/cff-schema';

const READ_ZIP = fileURLToPath(new URL('./fixtures/read_zip.py', import.meta.url));
const CHECK_METADATA = fileURLToPath(new URL('./fixtures/check_metadata.py', import.meta.url));

const zipSummarySchema = z.object({
  bad_crc: z.string().nullable(),
  entries: z.array(
    z.object({
      name: z.string(),
      date_time: z.array(z.number()),
      unix_mode: z.number(),
      compress_type: z.number(),
      sha256: z.string(),
    }),
  ),
  path_problems: z.array(z.string()),
  manifest: z.record(z.string(), z.unknown()),
  manifest_keys: z.array(z.string()),
  index: z.array(z.array(z.string())),
  errors: z.array(z.array(z.string())),
  transcripts: z.array(z.record(z.string(), z.unknown())),
  chunks: z.array(z.record(z.string(), z.unknown())).nullable(),
  datapackage: z
    .object({
      title: z.string(),
      resources: z.array(z.object({ name: z.string(), path: z.string() })),
    })
    .loose(),
  readme: z.string(),
  citation: z.string(),
  sha256sums: z.string(),
  files: z.record(z.string(), z.string()),
});

/** Reads the ZIP back with Python's zipfile, csv and json: a reader that shares no code with the writer. */
function readWithPython(zipPath: string): z.infer<typeof zipSummarySchema> {
  const stdout = execFileSync('python3', [READ_ZIP, zipPath], { encoding: 'utf8' });
  return zipSummarySchema.parse(JSON.parse(stdout));
}

/**
 * What check_metadata.py finds wrong in CITATION.cff (against the CFF 1.2.0 schema), README.md's front
 * matter, datapackage.json and the data they describe, checked as cffconvert --validate and
 * frictionless validate would (neither can be installed here).
 */
async function metadataProblems(zipPath: string): Promise<string[]> {
  const stdout = execFileSync('python3', [CHECK_METADATA, zipPath, await cffSchemaPath()], {
    encoding: 'utf8',
  });
  return z.array(z.string()).parse(JSON.parse(stdout));
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

const AWKWARD_TITLE = 'Hello, "world"\nsecond line';
const LONG_TITLE = 'Ω'.repeat(300);

const manifest: ExportManifest = {
  tool: { name: 'scriptorium', version: '0.1.0' },
  job_id: 'job_1',
  sources: ['PLabcdefghij', 'search:cats'],
  skipped_sources: [{ source: 'nope', reason: 'not a video, playlist or channel' }],
  failed_sources: [],
  options: { timestamps: true, formats: ['txt'], lang: ['en', 'orig'] },
  counts: { videos: 6, ok: 4, unavailable: 1, failed: 1, pending: 0, skipped: 0, sources_failed: 0 },
  credits_spent: 5,
  credits_possible: 0,
  finished_at: '2025-01-02T03:04:05.000Z',
  version: 1,
  versions: [{ version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 6, retried: 0, changed: 0 }],
  job_finished: true,
  all_videos_transcribed: true,
};

const VIDEOS: ExportVideo[] = [
  {
    number: 1,
    videoId: 'dQw4w9WgXcQ',
    title: AWKWARD_TITLE,
    position: 1,
    source: 'PLabcdefghij',
    status: 'ok',
    language: 'en',
    segmentCount: 2,
    segments: [
      { text: 'Never gonna', start: 18, duration: 3.5 },
      { text: 'give you up', start: 21.5, duration: 2 },
    ],
    metadata: {
      title: AWKWARD_TITLE,
      author_name: 'Rick',
      author_url: 'https://x',
      thumbnail_url: 'https://t',
    },
  },
  {
    number: 2,
    videoId: 'aaaaaaaaaaa',
    title: 'Gone',
    position: 2,
    source: 'PLabcdefghij',
    status: 'unavailable',
    httpStatus: 404,
    code: 'E_NOT_FOUND',
    message: 'No captions, "really"',
  },
  {
    number: 3,
    videoId: 'bbbbbbbbbbb',
    title: 'nul.txt',
    source: 'search:cats',
    status: 'ok',
    language: 'fr',
    segmentCount: 1,
    segments: [{ text: 'sans temps' }],
  },
  {
    number: 4,
    videoId: 'ccccccccccc',
    title: '',
    source: 'search:cats',
    status: 'failed',
    httpStatus: 502,
    message: 'Bad gateway after 3 attempts',
  },
  {
    number: 5,
    videoId: 'ddddddddddd',
    title: LONG_TITLE,
    position: 10,
    source: 'PLabcdefghij',
    status: 'ok',
    language: 'el',
    segmentCount: 1,
    segments: [{ text: 'Γεια', start: 3725.125, duration: 1 }],
  },
  {
    number: 6,
    // The same video listed twice in a playlist, fetched once: its second file gets "(2)".
    videoId: 'bbbbbbbbbbb',
    title: 'nul.txt',
    source: 'search:cats',
    status: 'ok',
    language: 'fr',
    segmentCount: 1,
    segments: [{ text: 'sans temps' }],
  },
];

/** What the datasheet describes besides the manifest. */
const DATASHEET_INPUT = {
  filters: ['title matches /talk/i', 'duration `>` 60 s'],
  languages: { fr: 1, en: 2 },
  syncs: [
    { at: '2025-03-01T00:00:00.000Z', newVideos: 2, credits: 2 },
    { at: '2025-04-01T00:00:00.000Z', newVideos: 0, credits: 1 },
  ],
} satisfies Partial<ExportInput>;

function input(overrides: Partial<ExportInput> = {}): ExportInput {
  return { manifest, videos: () => VIDEOS, ...overrides };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-export-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The rows of index.csv cut to the columns before the listing's (video_id … position). */
const firstColumns = (rows: string[][]): string[][] => rows.map((row) => row.slice(0, 7));

describe('writeCorpus', () => {
  it('writes the docs/product.md layout, readable by an independent ZIP reader', async () => {
    const out = join(dir, 'corpus.zip');
    const result = await writeCorpus(input(), out);
    const zip = readWithPython(out);

    // 190 bytes of stem (room for json/ and .json) minus '000005 - ' and ' [ddddddddddd]' leaves 83 two-byte Ωs.
    const longStem = `000005 - ${'Ω'.repeat(83)} [ddddddddddd]`;
    const stem = '000001 - Hello, _world_ second line [dQw4w9WgXcQ]';
    expect(zip.entries.map((entry) => entry.name)).toEqual([
      'manifest.json',
      'README.md',
      'CITATION.cff',
      'datapackage.json',
      'index.csv',
      'errors.csv',
      'memberships.csv',
      'changes.csv',
      // Video by video, each with its formats in folder order, named after its corpus number.
      `txt/${stem}.txt`,
      `json/${stem}.json`,
      `srt/${stem}.srt`,
      `vtt/${stem}.vtt`,
      // The untimed transcript gets no subtitles.
      'txt/000003 - nul.txt [bbbbbbbbbbb].txt',
      'json/000003 - nul.txt [bbbbbbbbbbb].json',
      `txt/${longStem}.txt`,
      `json/${longStem}.json`,
      `srt/${longStem}.srt`,
      `vtt/${longStem}.vtt`,
      // The same video listed twice: its own row, its own number.
      'txt/000006 - nul.txt [bbbbbbbbbbb].txt',
      'json/000006 - nul.txt [bbbbbbbbbbb].json',
      'transcripts.jsonl',
      'SHA256SUMS',
    ]);
    expect(zip.path_problems).toEqual([]);
    expect(zip.bad_crc).toBeNull();
    for (const entry of zip.entries) {
      expect(entry.date_time).toEqual([1980, 1, 1, 0, 0, 0]);
      expect(entry.unix_mode & 0o777).toBe(0o644);
    }
    // Written from scratch: every transcript file and transcripts.jsonl rendered, nothing copied.
    const rendered = zip.entries.filter(
      (entry) => entry.name.includes('/') || entry.name === 'transcripts.jsonl',
    );
    expect(result).toEqual({
      path: out,
      bytes: statSync(out).size,
      entries: zip.entries.length,
      copied: 0,
      written: rendered.length,
    });
    expect(readdirSync(dir)).toEqual(['corpus.zip']);

    expect(zip.manifest_keys).toEqual([
      'tool',
      'job_id',
      'version',
      'sources',
      'skipped_sources',
      'failed_sources',
      'options',
      'counts',
      'credits_spent',
      'credits_possible',
      'syncs',
      'versions',
      'finished_at',
      'job_finished',
      'all_videos_transcribed',
      'service',
      'word_count',
    ]);
    expect(zip.manifest).toEqual({
      ...manifest,
      syncs: [],
      versions: [
        {
          version: 1,
          released_at: '2025-01-02T03:04:05.000Z',
          added: 6,
          retried: 0,
          changed: 0,
          metadata: 0,
        },
      ],
      // Not given: the service alone, and how this process counts words.
      service: { name: 'Video Transcript Service', api_version: null, addresses: [] },
      word_count: {
        method: expect.stringContaining("ICU's dictionary-based word segmentation"),
        icu: process.versions.icu,
      },
    });

    expect(zip.index[0]).toEqual([
      'video_id',
      'title',
      'language',
      'status',
      'segments',
      'source',
      'position',
      'channel_title',
      'channel_id',
      'published',
      'duration_seconds',
      'view_count',
      'url',
      'requested_language',
      'word_count',
      'fetched_at',
      'files',
      'number',
      'published_from',
      'published_to',
      'listed_at',
    ]);
    expect(firstColumns(zip.index.slice(1))).toEqual([
      ['dQw4w9WgXcQ', AWKWARD_TITLE, 'en', 'ok', '2', 'PLabcdefghij', '1'],
      ['aaaaaaaaaaa', 'Gone', '', 'unavailable', '', 'PLabcdefghij', '2'],
      ['bbbbbbbbbbb', 'nul.txt', 'fr', 'ok', '1', 'search:cats', ''],
      ['ccccccccccc', '', '', 'failed', '', 'search:cats', ''],
      ['ddddddddddd', LONG_TITLE, 'el', 'ok', '1', 'PLabcdefghij', '10'],
      ['bbbbbbbbbbb', 'nul.txt', 'fr', 'ok', '1', 'search:cats', ''],
    ]);
    // The files column names each video's entries, which are in the ZIP: split on '|', as names hold spaces.
    const names = new Set(zip.entries.map((entry) => entry.name));
    expect(zip.index[1]?.[16]).toBe(['txt', 'json', 'srt', 'vtt'].map((f) => `${f}/${stem}.${f}`).join('|'));
    expect(zip.index[2]?.[16]).toBe('');
    for (const row of zip.index.slice(1)) {
      for (const path of (row[16] ?? '').split('|').filter(Boolean)) {
        expect(names.has(path), path).toBe(true);
      }
    }
    expect(zip.index.slice(1).map((row) => row[17])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(zip.errors).toEqual([
      ['video_id', 'status', 'http_status', 'code', 'message', 'source'],
      ['aaaaaaaaaaa', 'unavailable', '404', 'E_NOT_FOUND', 'No captions, "really"', 'PLabcdefghij'],
      ['ccccccccccc', 'failed', '502', '', 'Bad gateway after 3 attempts', 'search:cats'],
    ]);

    expect(zip.transcripts).toHaveLength(4);
    const [first, untimed] = zip.transcripts;
    expect(first).toMatchObject({
      video_id: 'dQw4w9WgXcQ',
      title: AWKWARD_TITLE,
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      author_name: 'Rick',
      author_url: 'https://x',
      thumbnail_url: 'https://t',
      segment_count: 2,
      word_count: 5,
      text: 'Never gonna\ngive you up',
      segments: [
        { text: 'Never gonna', start: 18, duration: 3.5 },
        { text: 'give you up', start: 21.5, duration: 2 },
      ],
    });
    // Every field in every record, null when unknown.
    expect(untimed).toEqual({
      video_id: 'bbbbbbbbbbb',
      number: 3,
      title: 'nul.txt',
      url: 'https://www.youtube.com/watch?v=bbbbbbbbbbb',
      source: 'search:cats',
      position: null,
      channel_title: null,
      channel_id: null,
      published: null,
      published_from: null,
      published_to: null,
      listed_at: null,
      duration_seconds: null,
      view_count: null,
      language: 'fr',
      requested_language: null,
      fetched_at: null,
      author_name: null,
      author_url: null,
      thumbnail_url: null,
      segment_count: 1,
      word_count: 2,
      text: 'sans temps',
      segments: [{ text: 'sans temps', start: null, duration: null }],
    });
    for (const record of zip.transcripts) expect(Object.keys(record)).toEqual(Object.keys(untimed ?? {}));
    // The json/ file holds the same record, laid out.
    expect(JSON.parse(zip.files[`json/${stem}.json`] ?? '')).toEqual(first);
    // Laid out, with times as floats like every time in the corpus.
    expect(zip.files[`json/${stem}.json`]).toContain('\n      "start": 18.0,\n      "duration": 3.5\n');
    expect(zip.files[`json/${stem}.json`]).toContain('\n      "start": 21.5,\n      "duration": 2.0\n');

    expect(zip.files[`srt/${stem}.srt`]).toBe(
      '1\n00:00:18,000 --> 00:00:21,500\nNever gonna\n\n2\n00:00:21,500 --> 00:00:23,500\ngive you up\n',
    );
    expect(zip.files[`vtt/${longStem}.vtt`]).toBe('WEBVTT\n\n01:02:05.125 --> 01:02:06.125\nΓεια\n');
    expect(zip.files[`txt/${stem}.txt`]).toBe('Never gonna\ngive you up\n');
  });

  it('ends with SHA256SUMS: the SHA-256 of every other entry, once each', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(input({ formats: ['txt', 'chunks'] }), out);
    const zip = readWithPython(out);
    const listed = zip.sha256sums
      .trimEnd()
      .split('\n')
      .map((line) => {
        const [hash, path] = [line.slice(0, 64), line.slice(66)];
        expect(line.slice(64, 66)).toBe('  ');
        return [path, hash];
      });
    const others = zip.entries.filter((entry) => entry.name !== 'SHA256SUMS');
    expect(listed).toHaveLength(others.length);
    expect(Object.fromEntries(listed)).toEqual(
      Object.fromEntries(others.map((entry) => [entry.name, entry.sha256])),
    );
  });

  it('gives byte-identical ZIPs for the same input', async () => {
    const first = join(dir, 'first.zip');
    const second = join(dir, 'second.zip');
    const research = { formats: EXPORT_FORMATS.slice(), ...DATASHEET_INPUT };
    await writeCorpus(input(research), first);
    await writeCorpus(
      input({
        ...research,
        manifest: { ...manifest, options: { lang: ['en', 'orig'], ...manifest.options } },
      }),
      second,
    );
    expect(sha256(second)).toBe(sha256(first));
  });

  it('writes only the requested formats, in fixed format order, and honours the name template', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(input({ formats: ['vtt', 'txt'], nameTemplate: '{language} - {title}' }), out);
    const names = readWithPython(out).entries.map((entry) => entry.name);
    expect(names.slice(8, -2)).toEqual([
      'txt/000001 - en - Hello, _world_ second line [dQw4w9WgXcQ].txt',
      'vtt/000001 - en - Hello, _world_ second line [dQw4w9WgXcQ].vtt',
      'txt/000003 - fr - nul.txt [bbbbbbbbbbb].txt',
      `txt/000005 - el - ${'Ω'.repeat(81)} [ddddddddddd].txt`,
      `vtt/000005 - el - ${'Ω'.repeat(81)} [ddddddddddd].vtt`,
      'txt/000006 - fr - nul.txt [bbbbbbbbbbb].txt',
    ]);
  });

  it('keeps hostile titles, texts and times out of names, tables and subtitles, read back by Python', async () => {
    const hostileText = '=cmd|\u0000\u001b[2J\u0085 --> <i>&</i>\u202e';
    const hostile: ExportVideo[] = [
      {
        number: 1,
        videoId: '-abcdefghij',
        title: `@SUM(1)\u202Efdp.exe\u0007`,
        source: '+x',
        status: 'ok',
        language: 'en',
        segmentCount: 2,
        segments: [
          { text: hostileText, start: -3, duration: 4 },
          { text: 'far', start: 1e300, duration: 1.7e308 },
        ],
        listing: { channelTitle: '-2+3', channelId: '@x', published: '=1' },
      },
      {
        number: 2,
        videoId: 'bbbbbbbbbbb',
        title: '-1',
        source: 's',
        status: 'failed',
        httpStatus: 500,
        message: '=HYPERLINK("http://evil")\u001b',
      },
    ];
    const out = join(dir, 'corpus.zip');
    await writeCorpus(input({ videos: () => hostile }), out);
    const zip = readWithPython(out);

    expect(zip.path_problems).toEqual([]);
    const stem = '000001 - @SUM(1)fdp.exe_ [-abcdefghij]';
    expect(zip.entries.map((entry) => entry.name).slice(8, -2)).toEqual(
      ['txt', 'json', 'srt', 'vtt'].map((format) => `${format}/${stem}.${format}`),
    );
    expect(firstColumns(zip.index.slice(1))).toEqual([
      ['-abcdefghij', "'@SUM(1)\u202efdp.exe", 'en', 'ok', '2', "'+x", ''],
      ['bbbbbbbbbbb', "'-1", '', 'failed', '', 's', ''],
    ]);
    // Free text is neutralised; an identifier only when it could run as a formula ('@x' cannot).
    expect(zip.index[1]?.slice(7, 10)).toEqual(["'-2+3", '@x', "'=1"]);
    expect(zip.errors.slice(1)).toEqual([
      ['bbbbbbbbbbb', 'failed', '500', '', `'=HYPERLINK("http://evil")`, 's'],
    ]);
    // Plain text: the tags go, the controls go, the lone & stays; each format then guards its own syntax.
    expect(zip.files[`srt/${stem}.srt`]).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\n=cmd|[2J -> &\u202e\n\n' +
        '2\n2777:46:39,999 --> 2777:46:40,000\nfar\n',
    );
    expect(zip.files[`vtt/${stem}.vtt`]).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n=cmd|[2J --&gt; &amp;\u202e\n\n' +
        '2777:46:39.999 --> 2777:46:40.000\nfar\n',
    );
    expect(zip.files[`txt/${stem}.txt`]).toBe('=cmd|[2J --> &\u202e\nfar\n');
    expect(zip.transcripts[0]?.['segments']).toEqual([
      { text: hostileText, start: -3, duration: 4 },
      { text: 'far', start: 1e300, duration: 1.7e308 },
    ]);
  });

  it('writes the tables alone for a job whose videos all failed', async () => {
    const out = join(dir, 'corpus.zip');
    const failedOnly = VIDEOS.filter((video) => video.status !== 'ok');
    await writeCorpus(input({ videos: () => failedOnly }), out);
    const zip = readWithPython(out);
    expect(zip.entries.map((entry) => entry.name)).toEqual([
      'manifest.json',
      'README.md',
      'CITATION.cff',
      'datapackage.json',
      'index.csv',
      'errors.csv',
      'memberships.csv',
      'changes.csv',
      'transcripts.jsonl',
      'SHA256SUMS',
    ]);
    expect(zip.transcripts).toEqual([]);
    expect(zip.errors).toHaveLength(3);
  });

  it('lists the sources it could not walk in errors.csv, and pending videos in index.csv', async () => {
    const out = join(dir, 'corpus.zip');
    const pending: ExportVideo = {
      number: 7,
      videoId: 'eeeeeeeeeee',
      title: 'Later',
      source: 'PLabcdefghij',
      status: 'pending',
    };
    await writeCorpus(
      input({
        videos: () => [...VIDEOS, pending],
        failedSources: [
          {
            source: 'PLgoneList_n5',
            status: 'unavailable',
            httpStatus: 404,
            code: 'E_NOT_FOUND',
            message: 'gone',
          },
          { source: '@broken', status: 'failed', message: 'a pagination loop' },
        ],
      }),
      out,
    );
    const zip = readWithPython(out);
    // A list not walked has no video ID: its source, as typed, is in `source`.
    expect(zip.errors.slice(0, 3)).toEqual([
      ['video_id', 'status', 'http_status', 'code', 'message', 'source'],
      ['', 'unavailable', '404', 'E_NOT_FOUND', 'gone', 'PLgoneList_n5'],
      ['', 'failed', '', '', 'a pagination loop', '@broken'],
    ]);
    expect(zip.errors.at(-1)).toEqual(['eeeeeeeeeee', 'pending', '', '', '', 'PLabcdefghij']);
    expect(firstColumns(zip.index.slice(-1))).toEqual([
      ['eeeeeeeeeee', 'Later', '', 'pending', '', 'PLabcdefghij', ''],
    ]);
  });

  it('stops when asked, leaving no file at the target and no temporary file beside it', async () => {
    const out = join(dir, 'corpus.zip');
    const controller = new AbortController();
    const error = await writeCorpus(input(), out, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 2) controller.abort();
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExportInterruptedError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("reports its progress video by video, out of the job's videos", async () => {
    const seen: string[] = [];
    await writeCorpus(input(), join(dir, 'corpus.zip'), {
      onProgress: ({ done, total }) => seen.push(`${done}/${total}`),
    });
    expect(seen).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
  });
});

describe('research-grade corpora', () => {
  const listed = (
    videoId: string,
    source: string,
    position: number,
    extra: Partial<ExportVideo> = {},
  ): ExportVideo => ({
    number: 'ABCDE'.indexOf(videoId[0] ?? '') + 1,
    videoId,
    title: `Talk ${videoId.slice(0, 2)}`,
    position,
    source,
    status: 'ok',
    language: 'en',
    requestedLanguage: 'en',
    fetchedAt: '2025-01-01T12:00:00.000Z',
    listedAt: '2025-01-22T00:00:00.000Z',
    segmentCount: 3,
    segments: [
      { text: 'Tom & Jerry &amp; <b>friends</b>', start: 0, duration: 30 },
      { text: 'chase &amp;amp; run', start: 30, duration: 25.5 },
      { text: 'the end', start: 55.5, duration: 20 },
    ],
    listing: {
      channelTitle: 'Cartoons',
      channelId: 'UCcartoons',
      published: '3 weeks ago',
      durationSeconds: 754,
      viewCount: 1_234_567,
      hasCaptions: true,
    },
    ...extra,
  });
  // Two playlists whose first videos both have position 1; a video a filter left out.
  const RESEARCH_VIDEOS: ExportVideo[] = [
    listed('AAAAAAAAAAA', 'PLfirstList', 1),
    listed('BBBBBBBBBBB', 'PLfirstList', 2, { requestedLanguage: '', language: 'fr' }),
    listed('CCCCCCCCCCC', 'PLsecondList', 1),
    {
      number: 4,
      videoId: 'DDDDDDDDDDD',
      title: 'Short clip',
      position: 2,
      source: 'PLsecondList',
      status: 'skipped',
      code: 'filter',
      message: 'shorter than 60 s',
      listing: { channelTitle: 'Cartoons', channelId: 'UCcartoons', durationSeconds: 12 },
    },
  ];
  const researchManifest: ExportManifest = {
    ...manifest,
    sources: ['PLfirstList', 'PLsecondList'],
    skipped_sources: [],
    counts: { videos: 4, ok: 3, unavailable: 0, failed: 0, pending: 0, skipped: 1, sources_failed: 0 },
    credits_spent: 7,
    credits_possible: 1,
  };
  const research = (overrides: Partial<ExportInput> = {}): ExportInput => ({
    manifest: researchManifest,
    videos: () => RESEARCH_VIDEOS,
    formats: ['txt', 'json', 'srt', 'vtt', 'chunks'],
    ...DATASHEET_INPUT,
    ...overrides,
  });

  it('numbers files across the corpus, so that two playlists never give two files the same number', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(research({ formats: ['txt'] }), out);
    const zip = readWithPython(out);
    expect(zip.entries.map((entry) => entry.name).filter((name) => name.startsWith('txt/'))).toEqual([
      'txt/000001 - Talk AA [AAAAAAAAAAA].txt',
      'txt/000002 - Talk BB [BBBBBBBBBBB].txt',
      'txt/000003 - Talk CC [CCCCCCCCCCC].txt',
    ]);
    // index.csv keeps each video's position in its own playlist.
    expect(zip.index.slice(1).map((row) => row[6])).toEqual(['1', '2', '1', '2']);
  });

  it("fills index.csv's research columns, and gives a skipped video its filter in errors.csv", async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(research(), out);
    const zip = readWithPython(out);
    const header = zip.index[0] ?? [];
    const rows = zip.index
      .slice(1)
      .map((row) => Object.fromEntries(header.map((column, at) => [column, row[at]])));
    expect(rows[0]).toEqual({
      video_id: 'AAAAAAAAAAA',
      title: 'Talk AA',
      language: 'en',
      status: 'ok',
      segments: '3',
      source: 'PLfirstList',
      position: '1',
      channel_title: 'Cartoons',
      channel_id: 'UCcartoons',
      published: '3 weeks ago',
      duration_seconds: '754',
      view_count: '1234567',
      url: 'https://www.youtube.com/watch?v=AAAAAAAAAAA',
      requested_language: 'en',
      // Tom, Jerry, friends; chase, amp, run; the, end.
      word_count: '8',
      fetched_at: '2025-01-01T12:00:00.000Z',
      files: ['txt', 'json', 'srt', 'vtt']
        .map((format) => `${format}/000001 - Talk AA [AAAAAAAAAAA].${format}`)
        .join('|'),
      number: '1',
      // "3 weeks ago", listed on 2025-01-22.
      published_from: '2024-12-25',
      published_to: '2025-01-01',
      listed_at: '2025-01-22T00:00:00.000Z',
    });
    // The original track is `orig`, as --lang names it.
    expect(rows[1]?.['requested_language']).toBe('orig');
    expect(rows[3]).toMatchObject({
      video_id: 'DDDDDDDDDDD',
      status: 'skipped',
      language: '',
      duration_seconds: '12',
      url: 'https://www.youtube.com/watch?v=DDDDDDDDDDD',
      word_count: '',
      files: '',
    });
    expect(zip.errors.slice(1)).toEqual([
      ['DDDDDDDDDDD', 'skipped', '', 'filter', 'shorter than 60 s', 'PLsecondList'],
    ]);
  });

  it('cleans the plain text once, escapes subtitles once, and keeps the json text as sent', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(research(), out);
    const zip = readWithPython(out);
    const stem = '000001 - Talk AA [AAAAAAAAAAA]';
    expect(zip.files[`txt/${stem}.txt`]).toBe('Tom & Jerry & friends\nchase &amp; run\nthe end\n');
    expect(zip.files[`vtt/${stem}.vtt`]).toContain('\nTom &amp; Jerry &amp; friends\n');
    expect(zip.files[`vtt/${stem}.vtt`]).toContain('\nchase &amp;amp; run\n');
    expect(zip.files[`srt/${stem}.srt`]).toContain('\nTom & Jerry & friends\n');
    const record = zip.transcripts[0];
    expect(record?.['text']).toBe('Tom & Jerry & friends\nchase &amp; run\nthe end');
    expect(record?.['segments']).toEqual([
      { text: 'Tom & Jerry &amp; <b>friends</b>', start: 0, duration: 30 },
      { text: 'chase &amp;amp; run', start: 30, duration: 25.5 },
      { text: 'the end', start: 55.5, duration: 20 },
    ]);
    expect(JSON.parse(zip.files[`json/${stem}.json`] ?? '')).toEqual(record);
  });

  it('cuts chunks.jsonl passages from whole segments, each opening the video at its start', async () => {
    const out = join(dir, 'corpus.zip');
    const untimed = listed('EEEEEEEEEEE', 'PLsecondList', 3, { segments: [{ text: 'no times' }] });
    await writeCorpus(
      research({
        videos: () => [...RESEARCH_VIDEOS, untimed],
        manifest: { ...researchManifest, counts: { ...researchManifest.counts, videos: 5, ok: 4 } },
        chunking: { targetSeconds: 60, overlapSeconds: 10 },
      }),
      out,
    );
    const zip = readWithPython(out);
    // 0-55.5 s (the third segment would end at 75.5 s), then from the segment starting at 45.5 s or after.
    expect(zip.chunks?.slice(0, 2)).toEqual([
      {
        chunk_id: 'AAAAAAAAAAA@0',
        video_id: 'AAAAAAAAAAA',
        language: 'en',
        title: 'Talk AA',
        start: 0,
        end: 55.5,
        text: 'Tom & Jerry & friends chase &amp; run',
        url: 'https://www.youtube.com/watch?v=AAAAAAAAAAA&t=0s',
      },
      {
        chunk_id: 'AAAAAAAAAAA@55500',
        video_id: 'AAAAAAAAAAA',
        language: 'en',
        title: 'Talk AA',
        start: 55.5,
        end: 75.5,
        text: 'the end',
        url: 'https://www.youtube.com/watch?v=AAAAAAAAAAA&t=55s',
      },
    ]);
    // Three timed transcripts of two passages each; the untimed one has none.
    expect(zip.chunks).toHaveLength(6);
    expect(zip.chunks?.some((chunk) => chunk['video_id'] === 'EEEEEEEEEEE')).toBe(false);
    expect(zip.datapackage.resources.map((resource) => resource.path)).toEqual([
      'index.csv',
      'errors.csv',
      'memberships.csv',
      'changes.csv',
      'transcripts.jsonl',
      'chunks.jsonl',
    ]);
  });

  it('writes CITATION.cff and datapackage.json that the CFF 1.2.0 and Data Package schemas accept, with data to match', async () => {
    const out = join(dir, 'corpus.zip');
    const withUntimed = [...RESEARCH_VIDEOS, ...VIDEOS];
    await writeCorpus(
      research({
        videos: () => withUntimed,
        manifest: { ...researchManifest, counts: { ...researchManifest.counts, videos: 10 } },
      }),
      out,
    );
    expect(await metadataProblems(out)).toEqual([]);
    const zip = readWithPython(out);
    expect(zip.citation).toContain('\ntype: dataset\n');
    expect(zip.citation).toContain('\ntitle: "Video transcripts from PLfirstList and PLsecondList"\n');
    expect(zip.citation).toContain('\ndate-released: "2025-01-02"\n');
    expect(zip.citation).toContain('\n  - type: software\n    title: "scriptorium"\n    version: "0.1.0"\n');
    expect(zip.citation).toContain('  - name: "Scriptorium user"\n');
    expect(zip.datapackage.title).toBe('Video transcripts from PLfirstList and PLsecondList');
  });

  it('checks its own validators: a CITATION.cff or data that break the rules are reported', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(research(), out);
    // Rewritten by Python with a dataset type CFF does not know, an integer time and a status index.csv does not allow.
    const broken = join(dir, 'broken.zip');
    execFileSync('python3', [
      '-c',
      `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], "w") as target:
    for info in source.infolist():
        data = source.read(info)
        if info.filename == "CITATION.cff": data = data.replace(b"type: dataset", b"type: corpus")
        if info.filename == "transcripts.jsonl": data = data.replace(b'"start":30.0', b'"start":30', 1)
        if info.filename == "index.csv": data = data.replace(b",ok,3,", b",done,3,", 1)
        target.writestr(info, data)
`,
      out,
      broken,
    ]);
    expect(await metadataProblems(broken)).toEqual([
      "CITATION.cff: type: 'corpus' is not one of ['dataset', 'software']",
      "index.csv row 2, status: 'done' is not one of ['ok', 'unavailable', 'failed', 'skipped', 'pending']",
      'transcripts.jsonl record 1, segments: start 30 is a int, not a string or a float',
    ]);
  });

  it('describes the corpus in README.md: a dataset card, then the sections of a datasheet, as the corpus is now', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(research({ skippedByFilter: [{ reason: 'shorter than 60 s', videos: 1 }] }), out);
    const { readme } = readWithPython(out);
    expect(
      readme.startsWith('---\npretty_name: "Video transcripts from PLfirstList and PLsecondList"\n'),
    ).toBe(true);
    expect(await metadataProblems(out)).toEqual([]);
    for (const expected of [
      'language:\n  - "en"\n  - "fr"\nlicense: "unknown"\n' +
        'task_categories:\n  - "text-generation"\n  - "text-retrieval"\n' +
        'tags:\n  - "transcripts"\n  - "captions"\n  - "video"\n  - "text"\nsize_categories:\n  - "n<1K"\n',
      'configs:\n  - config_name: "transcripts"\n    data_files: "transcripts.jsonl"\n    default: true\n' +
        '  - config_name: "chunks"\n    data_files: "chunks.jsonl"\n---\n',
      '\n# Video transcripts from PLfirstList and PLsecondList\n',
      'Version 1 of this corpus, released on 2025-01-02. No author was given',
      '## Motivation\n\nNo description was given',
      '## Composition\n',
      '| ok (transcript fetched) | 3 |',
      '| skipped (left out by a filter) | 1 |',
      '| **all videos** | **4** |',
      // Per source: videos, transcripts, hours (75.5 s each), words (8 each).
      '| `PLfirstList` | 2 | 2 | 0.0 | 16 |\n| `PLsecondList` | 2 | 1 | 0.0 | 8 |',
      '| `en` | 2 | 0.0 | 16 |\n| `fr` | 1 | 0.0 | 8 |',
      '- `shorter than 60 s`: 1 video',
      '## Collection\n',
      '- `PLfirstList`\n- `PLsecondList`\n',
      'The job finished at 2025-01-02T03:04:05.000Z (`job_finished`: it ran to its end).',
      'Credits spent: 7, 1 of them possibly charged',
      '- `lang`: `["en","orig"]`',
      '- `title matches /talk/i`\n- ``duration `>` 60 s``',
      '## Preprocessing\n',
      'is clipped where the next cue starts',
      'Passages (chunks.jsonl) are made of whole segments, at most 60 s each, overlapping by about 10 s.',
      '## Files\n',
      "Each name starts with the video's corpus number, six digits",
      '- `memberships.csv`: one row per video per source that holds it.',
      '- `changes.csv`: what each version after the first added, retried or changed.',
      '## Uses and caveats\n',
      'captions written by people or made automatically is not known',
      'Publication dates are intervals',
      '## Distribution\n\nThe transcripts belong to their owners, the rights holders of the videos',
      'No license was given',
      '## Maintenance\n',
      '- version 1, released 2025-01-02T03:04:05.000Z: 6 videos',
      '- 2025-03-01T00:00:00.000Z: 2 new videos, 2 credits\n- 2025-04-01T00:00:00.000Z: 0 new videos, 1 credit\n',
      'sha256sum -c SHA256SUMS',
      '## How to cite\n',
      '> Scriptorium user (2025). *Video transcripts from PLfirstList and PLsecondList* (Version 1) [Data set].',
    ]) {
      expect(readme).toContain(expected);
    }
  });

  it('names the authors, title, description, license and version before the checksums, in every file that cites', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(
      research({
        manifest: {
          ...researchManifest,
          version: 2,
          versions: [
            { version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 3, retried: 0, changed: 0 },
            { version: 2, releasedAt: '2025-02-03T00:00:00.000Z', added: 1, retried: 1, changed: 0 },
          ],
        },
        citation: {
          title: 'Cartoon talk, 2024',
          description: 'Talks about cartoons, for a study of *humour*.',
          authors: [
            { givenNames: 'Ada', familyNames: 'Lovelace', orcid: 'https://orcid.org/0000-0002-1825-0097' },
            { familyNames: 'Hopper', givenNames: 'Grace' },
          ],
          license: 'CC-BY-4.0',
        },
      }),
      out,
    );
    expect(await metadataProblems(out)).toEqual([]);
    const zip = readWithPython(out);
    expect(zip.citation).toContain(
      '\ntitle: "Cartoon talk, 2024"\nversion: "2"\ndate-released: "2025-02-03"\n' +
        'abstract: "Talks about cartoons, for a study of *humour*."\nauthors:\n' +
        '  - family-names: "Lovelace"\n    given-names: "Ada"\n    orcid: "https://orcid.org/0000-0002-1825-0097"\n' +
        '  - family-names: "Hopper"\n    given-names: "Grace"\nlicense: "CC-BY-4.0"\n',
    );
    expect(zip.citation).not.toContain('Scriptorium user');
    expect(zip.datapackage).toMatchObject({
      title: 'Cartoon talk, 2024',
      description: 'Talks about cartoons, for a study of *humour*.',
      version: '2',
      contributors: [
        { title: 'Ada Lovelace', role: 'author', path: 'https://orcid.org/0000-0002-1825-0097' },
        { title: 'Grace Hopper', role: 'author' },
      ],
      licenses: [{ name: 'CC-BY-4.0', path: 'https://spdx.org/licenses/CC-BY-4.0.html', title: 'CC-BY-4.0' }],
    });
    for (const expected of [
      'pretty_name: "Cartoon talk, 2024"\n',
      'license: "cc-by-4.0"\n',
      '# Cartoon talk, 2024\n',
      'Version 2 of this corpus, released on 2025-02-03. Collected by Ada Lovelace, Grace Hopper.',
      '## Motivation\n\nTalks about cartoons, for a study of \\*humour\\*.\n',
      'under `CC-BY-4.0`; that license does not extend to the transcripts',
      '- version 2, released 2025-02-03T00:00:00.000Z: 1 video added, 1 retried, 0 changed',
      '> Ada Lovelace, Grace Hopper (2025). *Cartoon talk, 2024* (Version 2) [Data set].',
    ]) {
      expect(zip.readme).toContain(expected);
    }
  });

  it('keeps the paragraphs of a description in CITATION.cff, README.md and datapackage.json, as one text', async () => {
    const out = join(dir, 'corpus.zip');
    const description =
      'Why: to study *humour*.\r\nA second line,   with spaces.\n\n\n# not a heading\n- not a list\n' +
      '2. nor this\n---\n\u2028Last <b>words</b> & more.  ';
    const kept =
      'Why: to study *humour*.\nA second line, with spaces.\n\n# not a heading\n- not a list\n' +
      '2. nor this\n---\n\nLast <b>words</b> & more.';
    await writeCorpus(research({ citation: { description, authors: [] } }), out);
    expect(await metadataProblems(out)).toEqual([]);
    const zip = readWithPython(out);
    // CITATION.cff as a YAML reader reads it.
    const abstract = execFileSync(
      'python3',
      ['-c', 'import sys, yaml; print(yaml.safe_load(sys.stdin.read())["abstract"], end="")'],
      { input: zip.citation, encoding: 'utf8' },
    );
    expect(abstract).toBe(kept);
    expect(zip.datapackage['description']).toBe(kept);
    // README.md: the same lines and paragraphs, escaped so that none reads as a heading, list or rule.
    expect(zip.readme).toContain(
      '## Motivation\n\nWhy: to study \\*humour\\*.\nA second line, with spaces.\n\n\\# not a heading\n' +
        '\\- not a list\n2\\. nor this\n\\---\n\nLast \\<b\\>words\\</b\\> \\& more.\n\n## Composition',
    );
  });

  it('keeps Markdown and HTML in sources and filters from being read as such in README.md', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(
      research({
        manifest: { ...researchManifest, sources: ['search:<script>alert(1)</script> **bold**'] },
        filters: ['title matches `x`|y'],
      }),
      out,
    );
    const { readme } = readWithPython(out);
    expect(readme).toContain(
      '# Video transcripts from search:\\<script\\>alert(1)\\</script\\> \\*\\*bold\\*\\*\n',
    );
    expect(readme).toContain('- `search:<script>alert(1)</script> **bold**`\n');
    expect(readme).toContain('- ``title matches `x`|y``\n');
  });
});

describe('writeCorpus failures', () => {
  const existingContent = 'an earlier export';

  async function expectExportError(
    out: string,
    exportInput: ExportInput,
    message: RegExp,
  ): Promise<ExportError> {
    const error: unknown = await writeCorpus(exportInput, out).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExportError);
    if (!(error instanceof ExportError)) throw new Error('unreachable');
    expect(error.message).toMatch(message);
    expect(error.message).toContain(out);
    return error;
  }

  /** Yields the videos, but throws after `failAfter` of them in the `failOnPass`th pass (1 is errors.csv). */
  function failingVideos(failOnPass: number, failAfter: number): () => Iterable<ExportVideo> {
    let pass = 0;
    return function* () {
      pass += 1;
      let read = 0;
      for (const video of VIDEOS) {
        if (pass === failOnPass && read === failAfter) throw new Error('database is locked');
        read += 1;
        yield video;
      }
    };
  }

  it('names a missing folder', async () => {
    const out = join(dir, 'missing', 'corpus.zip');
    await expectExportError(out, input(), /the folder does not exist/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names a path that runs through a file', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    const out = join(dir, 'file', 'corpus.zip');
    const error = await expectExportError(out, input(), /part of the path is a file/);
    expect(error.code).toBe('ENOTDIR');
    expect(readdirSync(dir)).toEqual(['file']);
  });

  for (const [pass, label] of [
    [1, 'while streaming errors.csv'],
    [2, 'while writing the transcript files and index.csv'],
  ] as const) {
    it(`leaves no partial file and the old target untouched when videos() throws ${label}`, async () => {
      const out = join(dir, 'corpus.zip');
      writeFileSync(out, existingContent);
      await expectExportError(
        out,
        input({ videos: failingVideos(pass, 2) }),
        /reading the job's videos failed/,
      );
      expect(readdirSync(dir)).toEqual(['corpus.zip']);
      expect(readFileSync(out, 'utf8')).toBe(existingContent);
    });
  }

  it('cleans up when the final rename fails because a folder has the target name', async () => {
    const out = join(dir, 'corpus.zip');
    mkdirSync(out);
    await expectExportError(out, input(), /a folder already has that name/);
    expect(readdirSync(dir)).toEqual(['corpus.zip']);
    expect(readdirSync(out)).toEqual([]);
  });
});
