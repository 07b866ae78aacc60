import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { corpusBuild, writeCorpus } from '../../../src/core/export';
import type { ExportFormat, ExportInput, ExportManifest, ExportVideo } from '../../../src/core/export';
import {
  prettyRecord,
  RECORD_FIELDS,
  recordHead,
  recordJson,
  recordTail,
  recordTailJson,
} from '../../../src/core/export/corpus/json-records';
import { jsonText, Seconds, type JsonValue } from '../../../src/core/export/corpus/json-text';
import {
  decodeDerivedTranscript,
  DERIVATION,
  deriveStoredTranscript,
  encodeDerivedTranscript,
} from '../../../src/core/export/derived-transcript';
import { deriveTranscript } from '../../../src/core/export/corpus/formats';
import { compressText } from '../../../src/core/export/zip/compression';
import { DeflateWorker } from '../../../src/core/export/zip/deflate-worker';

/**
 * What a stored transcript makes is derived once, ahead of any export (formats.ts deriveTranscript),
 * and an export of a video so derived only completes it. The corpus must be the same bytes either way.
 */

const manifest: ExportManifest = {
  tool: { name: 'scriptorium', version: '0.1.0' },
  job_id: '1',
  sources: ['PLderivedTests00000'],
  skipped_sources: [],
  failed_sources: [],
  options: {},
  counts: { videos: 7, ok: 6, unavailable: 0, failed: 1, pending: 0, skipped: 0, sources_failed: 0 },
  credits_spent: 6,
  credits_possible: 0,
  finished_at: '2025-01-02T03:04:05.000Z',
  version: 1,
  versions: [],
  job_finished: true,
  all_videos_transcribed: false,
};

const METADATA = {
  title: 'From the metadata',
  author_name: 'Ада',
  author_url: 'https://a',
  thumbnailUrl: 'https://t',
};

/** Videos of every kind a transcript comes in: timed or not, empty, unspaced scripts, hostile text, metadata. */
function videos(): ExportVideo[] {
  const ok = (
    number: number,
    segments: ExportVideo['segments'],
    more: Partial<ExportVideo> = {},
  ): ExportVideo => ({
    number,
    videoId: `vid${String(number).padStart(8, '0')}`,
    title: `Talk ${number}`,
    position: number,
    source: 'PLderivedTests00000',
    status: 'ok',
    language: 'en',
    requestedLanguage: '',
    fetchedAt: '2025-01-02T03:04:05.000Z',
    segmentCount: segments?.length ?? 0,
    segments,
    contentKey: `transcript-${number}`,
    listing: { channelTitle: 'Lab', viewCount: number * 10, durationSeconds: 60 },
    ...more,
  });
  return [
    ok(1, [
      { text: 'Never gonna', start: 18, duration: 3.5 },
      { text: 'give you up', start: 21.5, duration: 2 },
    ]),
    ok(2, [{ text: 'sans temps' }, { text: 'deux' }], { metadata: METADATA }),
    ok(3, []),
    ok(4, [{ text: '東京は晴れです今日はいい天気ですね', start: 0, duration: 2 }], { language: 'ja' }),
    // No listing (a video given by itself) and no title: the metadata names both.
    ok(
      5,
      [{ text: '=cmd|\u0000\u001b[2J\u0085 --> <i>&amp;</i>\u2028"},{"text":', start: -3, duration: 4 }],
      {
        title: '',
        listing: undefined,
        position: undefined,
        metadata: METADATA,
      },
    ),
    {
      number: 6,
      videoId: 'vid00000006',
      title: 'Gone',
      source: 's',
      status: 'failed',
      httpStatus: 502,
      message: 'x',
    },
    ok(7, [
      { text: 'same start', start: 1, duration: 0 },
      { text: 'same start again', start: 1, duration: 2 },
      { text: '', start: 4, duration: 1 },
    ]),
  ];
}

/**
 * The same videos, each with what its transcript derived; their segments and metadata fail when read,
 * unless `readable`.
 */
function derivedVideos({ readable = false } = {}): ExportVideo[] {
  return videos().map((video) => {
    if (video.status !== 'ok') return video;
    const { segments = [], metadata, ...rest } = video;
    const derived = decodeDerivedTranscript(deriveStoredTranscript(segments, metadata));
    if (readable) return { ...rest, segments, ...(metadata !== undefined && { metadata }), derived };
    return {
      ...rest,
      derived,
      get segments(): never {
        throw new Error(`the segments of ${video.videoId} were read`);
      },
      get metadata(): never {
        throw new Error(`the metadata of ${video.videoId} was read`);
      },
    };
  });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-derived-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function corpusBytes(list: () => ExportVideo[], formats?: ExportFormat[]): Promise<Buffer> {
  const out = join(dir, `corpus-${Math.random().toString(16).slice(2)}.zip`);
  const input: ExportInput = { manifest, videos: list, ...(formats !== undefined && { formats }) };
  await writeCorpus(input, out);
  return readFileSync(out);
}

describe('an export of derived transcripts', () => {
  it('writes the same bytes as an export that renders them, without reading a segment', async () => {
    const rendered = await corpusBytes(videos);
    const derived = await corpusBytes(derivedVideos);
    expect(derived.equals(rendered)).toBe(true);
  });

  it('writes the same bytes with passages, which read the segments', async () => {
    const formats: ExportFormat[] = ['txt', 'json', 'srt', 'vtt', 'chunks'];
    const withSegments = (): ExportVideo[] => derivedVideos({ readable: true });
    expect((await corpusBytes(withSegments, formats)).equals(await corpusBytes(videos, formats))).toBe(true);
  });
});

describe('a derived transcript as the database keeps it', () => {
  it('reads back as it was derived', () => {
    for (const video of videos()) {
      if (video.status !== 'ok') continue;
      const derived = deriveTranscript(video.segments ?? [], video.metadata);
      expect(decodeDerivedTranscript(encodeDerivedTranscript(derived))).toEqual(derived);
    }
  });

  it('is named by every part of the build its bytes depend on, so that another build derives it again', () => {
    // The desktop app (Electron's ICU) and the CLI (Node's) may count the words of unspaced scripts
    // otherwise: a row one derived is not the other's.
    const { renderingVersion, zlib, icu } = corpusBuild();
    expect(DERIVATION).toContain(`rendering ${renderingVersion}`);
    expect(DERIVATION).toContain(zlib);
    expect(DERIVATION).toContain(`ICU ${icu ?? 'none'}`);
  });

  it('is refused when its files do not read as written, rather than misread', () => {
    const stored = deriveStoredTranscript([{ text: 'a', start: 0, duration: 1 }], undefined);
    expect(() => decodeDerivedTranscript({ ...stored, files: stored.files.subarray(0, 30) })).toThrow();
    expect(() =>
      decodeDerivedTranscript({ ...stored, files: Buffer.concat([stored.files, Buffer.from([9])]) }),
    ).toThrow();
  });
});

describe('a file compressed ahead', () => {
  it('is the bytes the compression thread makes of it', async () => {
    const worker = new DeflateWorker(6);
    try {
      const texts = ['', 'a', 'WEBVTT\n', '東京は晴れです\n'.repeat(500), 'x'.repeat(70_000)];
      const compressed = await worker.compressFiles(texts);
      texts.forEach((text, at) => {
        const ours = compressText(text);
        const theirs = compressed[at];
        expect(ours.data.equals(theirs?.data ?? Buffer.alloc(0))).toBe(true);
        expect([ours.crc, ours.size, ours.sha256.toString('hex')]).toEqual([
          theirs?.crc,
          theirs?.size,
          theirs?.sha256,
        ]);
      });
    } finally {
      await worker.close();
    }
  });
});

describe('a record written once', () => {
  const text = fc.string({ unit: 'binary' });
  const time = fc.oneof(fc.constant(undefined), fc.double({ noNaN: false }), fc.integer());
  const segment = fc.record({ text, start: time, duration: time }, { requiredKeys: ['text'] });
  const video = fc.record({
    videoId: text,
    title: text,
    source: text,
    number: fc.integer({ min: 1 }),
    position: fc.option(fc.integer(), { nil: undefined }),
    language: fc.option(text, { nil: undefined }),
    fetchedAt: fc.option(text, { nil: undefined }),
    channelTitle: fc.option(text, { nil: undefined }),
    segments: fc.array(segment, { maxLength: 6 }),
    metadata: fc.option(
      fc.dictionary(fc.constantFrom('title', 'author_name', 'author_url', 'thumbnail_url'), text),
      {
        nil: undefined,
      },
    ),
    plain: text,
    wordCount: fc.nat(),
  });

  it('is laid out from its compact text exactly as JSON.stringify lays out the record', () => {
    fc.assert(
      fc.property(video, (drawn) => {
        const exportVideo: ExportVideo = {
          number: drawn.number,
          videoId: drawn.videoId,
          title: drawn.title,
          source: drawn.source,
          status: 'ok',
          ...(drawn.position !== undefined && { position: drawn.position }),
          ...(drawn.language !== undefined && { language: drawn.language }),
          ...(drawn.fetchedAt !== undefined && { fetchedAt: drawn.fetchedAt }),
          ...(drawn.channelTitle !== undefined && { listing: { channelTitle: drawn.channelTitle } }),
        };
        const head = recordHead(exportVideo, { title: null, authorName: null });
        const tail = recordTail(drawn.segments, drawn.metadata, {
          text: drawn.plain,
          wordCount: drawn.wordCount,
        });
        const compact = recordJson(head, recordTailJson(tail));
        const whole = { ...(head as Record<string, JsonValue>), ...(tail as Record<string, JsonValue>) };
        expect(Object.keys(whole)).toEqual([...RECORD_FIELDS]);
        expect(compact).toBe(jsonText(whole));
        expect(prettyRecord(compact)).toBe(jsonText(whole, '  '));
      }),
      { seed: 45, numRuns: 500 },
    );
  });

  it("keeps a segment whose text looks like the record's own layout", () => {
    const tail = recordTail(
      [
        { text: '"},{"text":"', start: 1, duration: 2 },
        { text: ',"start":1,"duration":2}]', start: 18, duration: 0.5 },
      ],
      undefined,
      { text: '"segments":[', wordCount: 2 },
    );
    const head = { video_id: 'x', number: 1 } as unknown as JsonValue;
    const compact = `${jsonText(head).slice(0, -1)},${recordTailJson(tail)}}`;
    const whole = { video_id: 'x', number: 1, ...(tail as Record<string, JsonValue>) };
    // Only the fields of a real record are found by their keys: fill in the rest for this one.
    const full = Object.fromEntries(
      RECORD_FIELDS.map((field) => [field, (whole as Record<string, JsonValue>)[field] ?? null]),
    );
    const fullCompact = jsonText(full);
    expect(compact).toContain('"segments":[{');
    expect(prettyRecord(fullCompact)).toBe(jsonText(full, '  '));
    expect(jsonText(new Seconds(18))).toBe('18.0');
  });
});
