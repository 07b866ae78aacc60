import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportInterruptedError, writeCorpus } from '../../../../src/core/export';
import type { ExportFormat, ExportInput, ExportManifest, ExportVideo } from '../../../../src/core/export';

const READ_ZIP = fileURLToPath(new URL('../fixtures/read_zip.py', import.meta.url));
const TAMPER_ZIP = fileURLToPath(new URL('../fixtures/tamper_zip.py', import.meta.url));

/**
 * An export again to the same path copies what it may from the ZIP there; whatever that file is, the
 * result must be the bytes an export from scratch writes. These tests write both and compare them.
 */

const ALL_FORMATS: ExportFormat[] = ['txt', 'json', 'srt', 'vtt', 'chunks'];

/** Video n: timed unless n is a multiple of 7, not ok when n is a multiple of 11. */
function video(number: number, change: Partial<ExportVideo> = {}): ExportVideo {
  const videoId = `vid${String(number).padStart(8, '0')}`;
  const base = { number, videoId, title: `Talk ${number}`, position: number, source: 'PLreexportTests000' };
  if (number % 11 === 0)
    return { ...base, status: 'failed', httpStatus: 502, message: 'Bad gateway', ...change };
  const timed = number % 7 !== 0;
  const segments = Array.from({ length: 12 }, (_, at) => ({
    text: `Segment ${at} of talk ${number}: some words to count`,
    ...(timed && { start: at * 4.5, duration: 4 }),
  }));
  return {
    ...base,
    status: 'ok',
    language: 'en',
    requestedLanguage: '',
    fetchedAt: '2025-01-02T03:04:05.000Z',
    segmentCount: segments.length,
    segments,
    contentKey: `transcript-${number}`,
    listing: { channelTitle: 'Lab', viewCount: number * 10 },
    listedAt: '2025-01-01T00:00:00.000Z',
    ...change,
  };
}

function manifestOf(videos: readonly ExportVideo[]): ExportManifest {
  const ok = videos.filter((each) => each.status === 'ok').length;
  return {
    tool: { name: 'Scriptorium', version: '1.0.0' },
    job_id: '1',
    sources: ['PLreexportTests000'],
    skipped_sources: [],
    failed_sources: [],
    options: { formats: ALL_FORMATS },
    counts: {
      videos: videos.length,
      ok,
      unavailable: 0,
      failed: videos.length - ok,
      pending: 0,
      skipped: 0,
      sources_failed: 0,
    },
    credits_spent: ok,
    credits_possible: 0,
    finished_at: '2025-01-02T03:04:05.000Z',
    version: 1,
    versions: [
      { version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: videos.length, retried: 0, changed: 0 },
    ],
    job_finished: true,
    all_videos_transcribed: true,
  };
}

/** 300 videos: three blocks of transcripts.jsonl and chunks.jsonl (128 videos each). */
const VIDEOS = Array.from({ length: 300 }, (_, at) => video(at + 1));

function corpus(videos: readonly ExportVideo[], overrides: Partial<ExportInput> = {}): ExportInput {
  return { manifest: manifestOf(videos), formats: ALL_FORMATS, videos: () => videos, ...overrides };
}

/** The files a corpus of these videos holds: txt and json for every ok video, srt and vtt for the timed. */
function fileCount(videos: readonly ExportVideo[], formats: readonly ExportFormat[] = ALL_FORMATS): number {
  return videos
    .filter((each) => each.status === 'ok')
    .reduce((sum, each) => {
      const timed = each.number % 7 !== 0;
      return (
        sum +
        formats.filter(
          (format) =>
            format === 'txt' || format === 'json' || (timed && (format === 'srt' || format === 'vtt')),
        ).length
      );
    }, 0);
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-reexport-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Exports `input` over what `previous` writes at a path, and from scratch at another; returns both results. */
async function againAndFromScratch(input: ExportInput, previous: (path: string) => Promise<void> | void) {
  const again = join(dir, 'again.zip');
  await previous(again);
  const result = await writeCorpus(input, again);
  const scratch = join(dir, 'scratch.zip');
  await writeCorpus(input, scratch);
  return { result, again: readFileSync(again), scratch: readFileSync(scratch), path: again };
}

/** Python's zipfile finds every CRC right and reads every table. */
function readsBack(path: string): void {
  const reading = JSON.parse(
    execFileSync('python3', [READ_ZIP, path], { encoding: 'utf8', maxBuffer: 1 << 30 }),
  ) as {
    bad_crc: string | null;
  };
  expect(reading.bad_crc).toBeNull();
}

/** The ZIP's comment, as Python's zipfile reads it. */
function zipComment(path: string): string {
  return execFileSync(
    'python3',
    ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).comment.decode(), end="")', path],
    {
      encoding: 'utf8',
    },
  );
}

function tamper(source: string, target: string, action: string, name: string): void {
  execFileSync('python3', [TAMPER_ZIP, source, target, action, name, 'edited by hand']);
}

describe('an export to the path of an earlier export', () => {
  it('of an unchanged job copies every file and both streams, compressing none, and writes the same bytes', async () => {
    const { result, again, scratch, path } = await againAndFromScratch(corpus(VIDEOS), (at) =>
      writeCorpus(corpus(VIDEOS), at).then(() => undefined),
    );
    expect(again.equals(scratch)).toBe(true);
    // Every transcript's file, transcripts.jsonl and chunks.jsonl: copied; nothing rendered (the CI guard).
    expect(result).toMatchObject({ copied: fileCount(VIDEOS) + 2, written: 0 });
    readsBack(path);
  });

  it('of an unchanged job keeps the file there as it is, having checked every byte of it', async () => {
    const path = join(dir, 'corpus.zip');
    const first = await writeCorpus(corpus(VIDEOS), path);
    const before = statSync(path);
    const result = await writeCorpus(corpus(VIDEOS), path);
    // The same file, not a new one renamed over it: nothing was written.
    expect(statSync(path).ino).toBe(before.ino);
    expect(result).toEqual({ ...first, copied: fileCount(VIDEOS) + 2, written: 0 });
  });

  it.each<[string, ExportInput]>([
    ['a new title for the corpus', corpus(VIDEOS, { citation: { title: 'Another title', authors: [] } })],
    [
      'a video moved down its list (index.csv alone shows it)',
      corpus(
        VIDEOS.map((each) =>
          each.number === 3
            ? { ...each, latestRead: { position: 9, listedAt: '2025-02-01T00:00:00.000Z' } }
            : each,
        ),
      ),
    ],
    [
      'a video found in another list (memberships.csv alone shows it)',
      corpus(VIDEOS, {
        memberships: () => [
          {
            videoId: 'vid00000001',
            source: 'PLother',
            listId: 'PLother',
            listTitle: null,
            position: 1,
            listedAt: null,
          },
        ],
      }),
    ],
    ['another name template', corpus(VIDEOS, { nameTemplate: '{video_id}' })],
  ])('after %s writes a new file, the bytes of an export from scratch', async (_, changed) => {
    const { again, scratch } = await againAndFromScratch(changed, (at) =>
      writeCorpus(corpus(VIDEOS), at).then(() => undefined),
    );
    expect(again.equals(scratch)).toBe(true);
    const unchanged = join(dir, 'unchanged.zip');
    await writeCorpus(corpus(VIDEOS), unchanged);
    expect(again.equals(readFileSync(unchanged))).toBe(false);
  });

  it.each([
    ['manifest.json, which no reuse field covers', 'manifest.json'],
    ['the checksums', 'SHA256SUMS'],
  ])(
    'of an unchanged job, with a byte of %s damaged, writes a new file, the bytes of an export from scratch',
    async (_, damaged) => {
      const { result, again, scratch, path } = await againAndFromScratch(corpus(VIDEOS), async (at) => {
        const sound = join(dir, 'sound.zip');
        await writeCorpus(corpus(VIDEOS), sound);
        tamper(sound, at, 'flip', damaged);
      });
      expect(again.equals(scratch)).toBe(true);
      expect(result).toMatchObject({ copied: fileCount(VIDEOS) + 2, written: 0 });
      readsBack(path);
    },
  );

  it('to a named pipe does not wait for a writer, and replaces it with the corpus', async () => {
    const path = join(dir, 'pipe.zip');
    execFileSync('mkfifo', [path]);
    await writeCorpus(corpus(VIDEOS), path);
    const scratch = join(dir, 'scratch.zip');
    await writeCorpus(corpus(VIDEOS), scratch);
    expect(readFileSync(path).equals(readFileSync(scratch))).toBe(true);
  });

  it('whose job changed between its two passes over the videos records no fingerprint, so the next export checks entry by entry', async () => {
    let passes = 0;
    // The first pass reads the job before a video's listing changed, the second after.
    const changing = corpus(VIDEOS, {
      videos: () =>
        ++passes === 1 ? VIDEOS : VIDEOS.map((each) => ({ ...each, listedAt: '2025-03-01T00:00:00.000Z' })),
    });
    const path = join(dir, 'corpus.zip');
    await writeCorpus(changing, path);
    expect(zipComment(path)).toBe('');
    const recorded = join(dir, 'recorded.zip');
    await writeCorpus(corpus(VIDEOS), recorded);
    expect(zipComment(recorded)).toMatch(/^Scriptorium corpus record 1: inputs [0-9a-f]{32}, /);
  });

  it('after new videos, a changed listing and a transcript fetched again renders only those, and writes the same bytes', async () => {
    const changed = [
      ...VIDEOS.map((each) =>
        each.number === 5
          ? { ...each, position: 8, listedAt: '2025-02-01T00:00:00.000Z' }
          : each.number === 200
            ? video(200, { contentKey: 'transcript-200-again', fetchedAt: '2025-02-01T00:00:00.000Z' })
            : each,
      ),
      ...Array.from({ length: 6 }, (_, at) => video(301 + at)),
    ];
    const { result, again, scratch, path } = await againAndFromScratch(corpus(changed), (at) =>
      writeCorpus(corpus(VIDEOS), at).then(() => undefined),
    );
    expect(again.equals(scratch)).toBe(true);
    // Rendered: the new videos' files, video 5's json (its txt, srt and vtt stay), all of video 200's,
    // and the two streams (their unchanged blocks copied).
    const fresh = fileCount(changed.slice(300)) + 1 + 4 + 2;
    expect(result).toMatchObject({ written: fresh, copied: fileCount(changed) + 2 - fresh });
    readsBack(path);
  });

  it.each([
    ['other formats', corpus(VIDEOS, { formats: ['txt'] })],
    ['other chunk settings', corpus(VIDEOS, { chunking: { targetSeconds: 20, overlapSeconds: 5 } })],
  ])('written with %s copies what they share and writes the same bytes', async (_, earlier) => {
    const { result, again, scratch } = await againAndFromScratch(corpus(VIDEOS), (at) =>
      writeCorpus(earlier, at).then(() => undefined),
    );
    expect(again.equals(scratch)).toBe(true);
    expect(result.copied).toBeGreaterThan(0);
    expect(result.written).toBeGreaterThan(0);
  });

  it.each([
    [
      'another job',
      corpus(
        VIDEOS.map((each) => ({
          ...each,
          contentKey: `other-${each.number}`,
          title: `Other ${each.number}`,
        })),
      ),
    ],
    [
      'another version of Scriptorium',
      corpus(VIDEOS, {
        manifest: { ...manifestOf(VIDEOS), tool: { name: 'Scriptorium', version: '0.9.0' } },
      }),
    ],
  ])('by %s copies nothing and writes the same bytes', async (_, earlier) => {
    const { result, again, scratch } = await againAndFromScratch(corpus(VIDEOS), (at) =>
      writeCorpus(earlier, at).then(() => undefined),
    );
    expect(again.equals(scratch)).toBe(true);
    expect(result).toMatchObject({ copied: 0, written: fileCount(VIDEOS) + 2 });
  });

  it('with one entry damaged renders that entry alone and writes the same bytes', async () => {
    const damaged = 'json/000010 - Talk 10 [vid00000010].json';
    const { result, again, scratch } = await againAndFromScratch(corpus(VIDEOS), async (at) => {
      const sound = join(dir, 'sound.zip');
      await writeCorpus(corpus(VIDEOS), sound);
      tamper(sound, at, 'flip', damaged);
    });
    expect(again.equals(scratch)).toBe(true);
    expect(result).toMatchObject({ copied: fileCount(VIDEOS) + 1, written: 1 });
  });

  it('with a block of transcripts.jsonl damaged renders that block, copies the rest, and writes the same bytes', async () => {
    const { result, again, scratch } = await againAndFromScratch(corpus(VIDEOS), async (at) => {
      const sound = join(dir, 'sound.zip');
      await writeCorpus(corpus(VIDEOS), sound);
      tamper(sound, at, 'flip', 'transcripts.jsonl');
    });
    expect(again.equals(scratch)).toBe(true);
    // transcripts.jsonl is written again (two of its blocks copied); every file is still copied.
    expect(result).toMatchObject({ copied: fileCount(VIDEOS) + 1, written: 1 });
  });

  it('edited by hand (its CRC made right again) renders the edited file and writes the same bytes', async () => {
    const edited = 'txt/000001 - Talk 1 [vid00000001].txt';
    const { result, again, scratch } = await againAndFromScratch(corpus(VIDEOS), async (at) => {
      const sound = join(dir, 'sound.zip');
      await writeCorpus(corpus(VIDEOS), sound);
      tamper(sound, at, 'replace', edited);
    });
    expect(again.equals(scratch)).toBe(true);
    expect(result.written).toBeGreaterThanOrEqual(1);
  });

  it.each<[string, (path: string) => Promise<void> | void]>([
    [
      'a ZIP another program packed from the same files',
      async (at) => {
        const sound = join(dir, 'sound.zip');
        await writeCorpus(corpus(VIDEOS), sound);
        execFileSync('python3', [TAMPER_ZIP, sound, at, 'rezip']);
      },
    ],
    ['a file that is no ZIP', (at) => writeFileSync(at, 'just some text, no ZIP at all\n'.repeat(100))],
    ['an empty file', (at) => writeFileSync(at, '')],
    [
      'a ZIP cut short',
      async (at) => {
        await writeCorpus(corpus(VIDEOS), at);
        truncateSync(at, Math.floor(readFileSync(at).length / 2));
      },
    ],
  ])('holding %s renders everything and writes the same bytes', async (_, previous) => {
    const { result, again, scratch } = await againAndFromScratch(corpus(VIDEOS), previous);
    expect(again.equals(scratch)).toBe(true);
    expect(result).toMatchObject({ copied: 0, written: fileCount(VIDEOS) + 2 });
  });

  it('of videos given out of corpus order writes the same bytes, copying no block', async () => {
    // Video 129 (block 1) comes before video 5 (block 0): a block's lines are no longer together.
    const shuffled = (videos: ExportVideo[]) => [
      ...videos.slice(0, 4),
      videos[128] as ExportVideo,
      ...videos.slice(4, 128),
      ...videos.slice(129, 200),
    ];
    const earlier = shuffled(VIDEOS);
    const later = shuffled(VIDEOS.map((each) => (each.number === 2 ? { ...each, position: 50 } : each)));
    const { result, again, scratch } = await againAndFromScratch(corpus(later), (at) =>
      writeCorpus(corpus(earlier), at).then(() => undefined),
    );
    expect(again.equals(scratch)).toBe(true);
    // Video 2's json file, transcripts.jsonl and chunks.jsonl are written; every other file is copied.
    expect(result).toMatchObject({ written: 3, copied: fileCount(later) - 1 });
  });

  it('stopped halfway leaves the earlier export as it was', async () => {
    const path = join(dir, 'corpus.zip');
    await writeCorpus(corpus(VIDEOS), path);
    const before = readFileSync(path);
    const changed = [...VIDEOS, video(301)];
    const controller = new AbortController();
    const stopping = writeCorpus(corpus(changed), path, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 150) controller.abort();
      },
    });
    await expect(stopping).rejects.toBeInstanceOf(ExportInterruptedError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
