import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExportError, ExportInterruptedError, writeCorpus } from '../../../src/core/export';
import type { ExportInput, ExportManifest, ExportVideo } from '../../../src/core/export';

const READ_ZIP = fileURLToPath(new URL('./fixtures/read_zip.py', import.meta.url));

const zipSummarySchema = z.object({
  bad_crc: z.string().nullable(),
  entries: z.array(
    z.object({
      name: z.string(),
      date_time: z.array(z.number()),
      unix_mode: z.number(),
      compress_type: z.number(),
    }),
  ),
  path_problems: z.array(z.string()),
  manifest: z.record(z.string(), z.unknown()),
  manifest_keys: z.array(z.string()),
  index: z.array(z.array(z.string())),
  errors: z.array(z.array(z.string())),
  transcripts: z.array(z.record(z.string(), z.unknown())),
  files: z.record(z.string(), z.string()),
});

/** Reads the ZIP back with Python's zipfile, csv and json: a reader that shares no code with the writer. */
function readWithPython(zipPath: string): z.infer<typeof zipSummarySchema> {
  const stdout = execFileSync('python3', [READ_ZIP, zipPath], { encoding: 'utf8' });
  return zipSummarySchema.parse(JSON.parse(stdout));
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
  complete: true,
};

const VIDEOS: ExportVideo[] = [
  {
    videoId: 'dQw4w9WgXcQ',
    title: AWKWARD_TITLE,
    position: 1,
    positionWidth: 2,
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
    raw: [
      { text: 'Never gonna', start: 18.0, duration: 3.5 },
      { text: 'give you up', start: 21.5, duration: 2 },
    ],
  },
  {
    videoId: 'aaaaaaaaaaa',
    title: 'Gone',
    position: 2,
    positionWidth: 2,
    source: 'PLabcdefghij',
    status: 'unavailable',
    httpStatus: 404,
    code: 'E_NOT_FOUND',
    message: 'No captions, "really"',
  },
  {
    videoId: 'bbbbbbbbbbb',
    title: 'nul.txt',
    source: 'search:cats',
    status: 'ok',
    language: 'fr',
    segmentCount: 1,
    segments: [{ text: 'sans temps' }],
    raw: [{ text: 'sans temps' }],
  },
  {
    videoId: 'ccccccccccc',
    title: '',
    source: 'search:cats',
    status: 'failed',
    httpStatus: 502,
    message: 'Bad gateway after 3 attempts',
  },
  {
    videoId: 'ddddddddddd',
    title: LONG_TITLE,
    position: 10,
    positionWidth: 2,
    source: 'PLabcdefghij',
    status: 'ok',
    language: 'el',
    segmentCount: 1,
    segments: [{ text: 'Γεια', start: 3725.125, duration: 1 }],
    raw: [{ text: 'Γεια', start: 3725.125, duration: 1 }],
  },
  {
    // The same video listed twice in a playlist, fetched once: its second file gets "(2)".
    videoId: 'bbbbbbbbbbb',
    title: 'nul.txt',
    source: 'search:cats',
    status: 'ok',
    language: 'fr',
    segmentCount: 1,
    segments: [{ text: 'sans temps' }],
    raw: [{ text: 'sans temps' }],
  },
];

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

describe('writeCorpus', () => {
  it('writes the docs/product.md layout, readable by an independent ZIP reader', async () => {
    const out = join(dir, 'corpus.zip');
    const result = await writeCorpus(input(), out);
    const zip = readWithPython(out);

    // 190 bytes of stem (room for json/ and .json) minus '10 - ' and ' [ddddddddddd]' leaves 85 two-byte Ωs.
    const longStem = `10 - ${'Ω'.repeat(85)} [ddddddddddd]`;
    expect(zip.entries.map((entry) => entry.name)).toEqual([
      'manifest.json',
      'index.csv',
      'errors.csv',
      // Video by video, each with its formats in folder order.
      'txt/01 - Hello, _world_ second line [dQw4w9WgXcQ].txt',
      'json/01 - Hello, _world_ second line [dQw4w9WgXcQ].json',
      'srt/01 - Hello, _world_ second line [dQw4w9WgXcQ].srt',
      'vtt/01 - Hello, _world_ second line [dQw4w9WgXcQ].vtt',
      // The untimed transcript gets no subtitles.
      'txt/_nul.txt [bbbbbbbbbbb].txt',
      'json/_nul.txt [bbbbbbbbbbb].json',
      `txt/${longStem}.txt`,
      `json/${longStem}.json`,
      `srt/${longStem}.srt`,
      `vtt/${longStem}.vtt`,
      'txt/_nul.txt (2) [bbbbbbbbbbb].txt',
      'json/_nul.txt (2) [bbbbbbbbbbb].json',
      'transcripts.jsonl',
    ]);
    expect(zip.path_problems).toEqual([]);
    expect(zip.bad_crc).toBeNull();
    for (const entry of zip.entries) {
      expect(entry.date_time).toEqual([1980, 1, 1, 0, 0, 0]);
      expect(entry.unix_mode & 0o777).toBe(0o644);
    }
    expect(result).toEqual({ path: out, bytes: statSync(out).size, entries: zip.entries.length });
    expect(readdirSync(dir)).toEqual(['corpus.zip']);

    expect(zip.manifest_keys).toEqual([
      'tool',
      'job_id',
      'sources',
      'skipped_sources',
      'failed_sources',
      'options',
      'counts',
      'credits_spent',
      'credits_possible',
      'finished_at',
      'complete',
    ]);
    expect(zip.manifest).toEqual(manifest);

    expect(zip.index).toEqual([
      ['video_id', 'title', 'language', 'status', 'segments', 'source', 'position'],
      ['dQw4w9WgXcQ', AWKWARD_TITLE, 'en', 'ok', '2', 'PLabcdefghij', '1'],
      ['aaaaaaaaaaa', 'Gone', '', 'unavailable', '', 'PLabcdefghij', '2'],
      ['bbbbbbbbbbb', 'nul.txt', 'fr', 'ok', '1', 'search:cats', ''],
      ['ccccccccccc', '', '', 'failed', '', 'search:cats', ''],
      ['ddddddddddd', LONG_TITLE, 'el', 'ok', '1', 'PLabcdefghij', '10'],
      ['bbbbbbbbbbb', 'nul.txt', 'fr', 'ok', '1', 'search:cats', ''],
    ]);
    expect(zip.errors).toEqual([
      ['video_id', 'status', 'http_status', 'code', 'message'],
      ['aaaaaaaaaaa', 'unavailable', '404', 'E_NOT_FOUND', 'No captions, "really"'],
      ['ccccccccccc', 'failed', '502', '', 'Bad gateway after 3 attempts'],
    ]);

    expect(zip.transcripts).toHaveLength(4);
    const [first, untimed] = zip.transcripts;
    expect(Object.keys(first ?? {})).toEqual([
      'video_id',
      'language',
      'source',
      'title',
      'author_name',
      'author_url',
      'thumbnail_url',
      'segments',
    ]);
    expect(first).toMatchObject({
      video_id: 'dQw4w9WgXcQ',
      title: AWKWARD_TITLE,
      segments: [
        { text: 'Never gonna', start: 18, duration: 3.5 },
        { text: 'give you up', start: 21.5, duration: 2 },
      ],
    });
    expect(untimed).toEqual({
      video_id: 'bbbbbbbbbbb',
      language: 'fr',
      source: 'search:cats',
      segments: [{ text: 'sans temps' }],
    });

    const stem = '01 - Hello, _world_ second line [dQw4w9WgXcQ]';
    expect(zip.files[`srt/${stem}.srt`]).toBe(
      '1\n00:00:18,000 --> 00:00:21,500\nNever gonna\n\n2\n00:00:21,500 --> 00:00:23,500\ngive you up\n',
    );
    expect(zip.files[`vtt/${longStem}.vtt`]).toBe('WEBVTT\n\n01:02:05.125 --> 01:02:06.125\nΓεια\n');
    expect(zip.files[`txt/${stem}.txt`]).toBe('Never gonna\ngive you up\n');
    expect(JSON.parse(zip.files[`json/${stem}.json`] ?? '')).toEqual({
      video_id: 'dQw4w9WgXcQ',
      language: 'en',
      title: AWKWARD_TITLE,
      source: 'PLabcdefghij',
      transcript: VIDEOS[0]?.raw,
    });
  });

  it('gives byte-identical ZIPs for the same input', async () => {
    const first = join(dir, 'first.zip');
    const second = join(dir, 'second.zip');
    await writeCorpus(input(), first);
    await writeCorpus(
      input({ manifest: { ...manifest, options: { lang: ['en', 'orig'], ...manifest.options } } }),
      second,
    );
    expect(sha256(second)).toBe(sha256(first));
  });

  it('writes only the requested formats, in fixed format order, and honours the name template', async () => {
    const out = join(dir, 'corpus.zip');
    await writeCorpus(input({ formats: ['vtt', 'txt'], nameTemplate: '{language} - {title}' }), out);
    const names = readWithPython(out).entries.map((entry) => entry.name);
    expect(names.slice(3, -1)).toEqual([
      'txt/01 - en - Hello, _world_ second line [dQw4w9WgXcQ].txt',
      'vtt/01 - en - Hello, _world_ second line [dQw4w9WgXcQ].vtt',
      'txt/fr - nul.txt [bbbbbbbbbbb].txt',
      `txt/10 - el - ${'Ω'.repeat(83)} [ddddddddddd].txt`,
      `vtt/10 - el - ${'Ω'.repeat(83)} [ddddddddddd].vtt`,
      'txt/fr - nul.txt (2) [bbbbbbbbbbb].txt',
    ]);
  });

  it('keeps hostile titles, texts and times out of names, tables and subtitles, read back by Python', async () => {
    const hostileText = '=cmd|\u0000\u001b[2J\u0085 --> <i>&</i>\u202e';
    const hostile: ExportVideo[] = [
      {
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
        raw: { transcript: [{ text: hostileText }] },
      },
      {
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
    const stem = '@SUM(1)fdp.exe_ [-abcdefghij]';
    expect(zip.entries.map((entry) => entry.name).slice(3, -1)).toEqual(
      ['txt', 'json', 'srt', 'vtt'].map((format) => `${format}/${stem}.${format}`),
    );
    expect(zip.index.slice(1)).toEqual([
      ['-abcdefghij', "'@SUM(1)\u202efdp.exe", 'en', 'ok', '2', "'+x", ''],
      ['bbbbbbbbbbb', "'-1", '', 'failed', '', 's', ''],
    ]);
    expect(zip.errors.slice(1)).toEqual([['bbbbbbbbbbb', 'failed', '500', '', `'=HYPERLINK("http://evil")`]]);
    expect(zip.files[`srt/${stem}.srt`]).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\n=cmd|[2J -> <i>&</i>\u202e\n\n' +
        '2\n2777:46:40,000 --> 2777:46:40,000\nfar\n',
    );
    expect(zip.files[`vtt/${stem}.vtt`]).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n=cmd|[2J --&gt; &lt;i&gt;&amp;&lt;/i&gt;\u202e\n\n' +
        '2777:46:40.000 --> 2777:46:40.000\nfar\n',
    );
    expect(zip.files[`txt/${stem}.txt`]).toBe('=cmd|[2J --> <i>&</i>\u202e\nfar\n');
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
      'index.csv',
      'errors.csv',
      'transcripts.jsonl',
    ]);
    expect(zip.transcripts).toEqual([]);
    expect(zip.errors).toHaveLength(3);
  });

  it('lists the sources it could not walk in errors.csv, and pending videos in index.csv', async () => {
    const out = join(dir, 'corpus.zip');
    const pending: ExportVideo = {
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
    expect(zip.errors.slice(0, 3)).toEqual([
      ['video_id', 'status', 'http_status', 'code', 'message'],
      ['PLgoneList_n5', 'unavailable', '404', 'E_NOT_FOUND', 'gone'],
      ["'@broken", 'failed', '', '', 'a pagination loop'], // a cell starting with @ is neutralised
    ]);
    expect(zip.errors.at(-1)).toEqual(['eeeeeeeeeee', 'pending', '', '', '']);
    expect(zip.index.at(-1)).toEqual(['eeeeeeeeeee', 'Later', '', 'pending', '', 'PLabcdefghij', '']);
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

  /** Yields the videos, but throws after `failAfter` of them in the `failOnPass`th pass (1 is index.csv). */
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
    [1, 'while streaming index.csv'],
    [3, 'while writing the transcript files'],
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
