import { afterEach, describe, expect, it } from 'vitest';
import { lengthSeconds, viewCount } from '../../../src/core/engine/selection';
import { publishedInterval } from '../../../src/shared/published';
import { skippedByFilter } from '../../../src/core/store/queries/job-history';
import { parsePositions, positionSelected } from '../../../src/shared/filters';
import type { Filters } from '../../../src/shared/filters';
import { describePlaylist, describeVideo } from '../../../src/simulator';
import { FastClock, startHarness, spec, type Harness } from './helpers';
import { exportRowsOf } from '../../../src/core/store/queries/export-rows';

describe("positions in yt-dlp's --playlist-items syntax", () => {
  const selected = (text: string, size: number) => {
    const parsed = parsePositions(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    return Array.from({ length: size }, (_, i) => i + 1).filter((p) =>
      positionSelected(parsed.ranges, p, size),
    );
  };

  it.each([
    ['1-3,7', 15, [1, 2, 3, 7]],
    ['1:3,7,-5::2', 15, [1, 2, 3, 7, 11, 13, 15]],
    ['-10:', 15, [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]],
    ['::5', 15, [1, 6, 11]],
    ['-1', 15, [15]],
    ['14:', 15, [14, 15]],
  ] as const)('%s of %i', (text, size, expected) => {
    expect(selected(text, size)).toEqual(expected);
  });

  it.each(['0', 'a-b', '1::0', '1-', '0-5', '0:', '5:2'])('refuses %s', (text) => {
    expect(parsePositions(text).ok).toBe(false);
  });

  it('refuses a range that runs backwards, saying how to write it, as it refuses 0 (issue 44)', () => {
    expect(parsePositions('5-2')).toEqual({
      ok: false,
      reason: '"5-2" runs backwards: write the first position first (2-5)',
    });
    // A slice that counts down from the end on purpose stays.
    expect(parsePositions('-1:-3:-1').ok).toBe(true);
  });
});

describe("reading the listing's texts", () => {
  it('reads lengths, view counts and publication times, approximate when relative', () => {
    expect([
      lengthSeconds('1:02:03'),
      lengthSeconds('12:34'),
      lengthSeconds('45'),
      lengthSeconds('LIVE'),
    ]).toEqual([3723, 754, 45, undefined]);
    expect([viewCount('1,234 views'), viewCount('1.2M views'), viewCount('no views')]).toEqual([
      1234,
      1_200_000,
      undefined,
    ]);
    const listedAt = Date.UTC(2026, 0, 31);
    // "3 weeks ago": at least 21 and less than 28 days before the page was read.
    expect(publishedInterval('3 weeks ago', listedAt)).toEqual({ from: '2026-01-03', to: '2026-01-10' });
    expect(publishedInterval('Streamed 2 days ago', listedAt)).toEqual({
      from: '2026-01-28',
      to: '2026-01-29',
    });
    expect(publishedInterval('2025-06-01T10:00:00Z', listedAt)).toEqual({
      from: '2025-06-01',
      to: '2025-06-01',
    });
    expect(publishedInterval('2025-06-01', undefined)).toEqual({ from: '2025-06-01', to: '2025-06-01' });
    // Relative text without the time it was read says nothing; nor does a missing date.
    expect(publishedInterval('3 weeks ago', undefined)).toBeUndefined();
    expect(publishedInterval(undefined, listedAt)).toBeUndefined();
  });
});

describe('filters skip exactly what they should, with nothing charged for it', () => {
  let h: Harness;
  afterEach(() => h.close());

  const PLAYLIST = 'PLfilteredLecturesList_n120';
  const ids = describePlaylist(PLAYLIST).videoIds();

  async function run(filters: Filters) {
    h = await startHarness({ credits: 10_000 });
    const { job } = h.engine.findOrCreateJob(spec([PLAYLIST], { filters }));
    expect((await h.engine.run(job.id, { concurrency: 8 })).status).toBe('completed');
    const rows = [...exportRowsOf(h.db, job.id)];
    const skipped = rows.filter((row) => row.status === 'skipped').map((row) => row.videoId);
    // Skipped videos are never requested, so never charged.
    for (const id of skipped) expect(h.sim.admin.chargesFor(id)).toBe(0);
    const requested = new Set(h.sim.admin.requests().map((request) => request.query['video_url']));
    for (const id of skipped) expect(requested.has(id)).toBe(false);
    return { job, rows, skipped };
  }

  it('by duration', async () => {
    const { skipped, rows, job } = await run({ minDuration: 600, maxDuration: 2000 });
    expect(skipped).toEqual(
      ids.filter((id) => describeVideo(id).lengthSeconds < 600 || describeVideo(id).lengthSeconds > 2000),
    );
    // One count per filter, however many videos each left out, each of its own length.
    const shorter = ids.filter((id) => describeVideo(id).lengthSeconds < 600).length;
    const longer = ids.filter((id) => describeVideo(id).lengthSeconds > 2000).length;
    expect(shorter).toBeGreaterThan(1);
    expect(longer).toBeGreaterThan(1);
    expect(skippedByFilter(h.db, job.id).sort((a, b) => a.reason.localeCompare(b.reason))).toEqual([
      { reason: 'longer than 2000 s', videos: longer },
      { reason: 'shorter than 600 s', videos: shorter },
    ]);
    expect(
      rows
        .filter((row) => row.status === 'skipped')
        .every((row) => /^(shorter|longer) than/.test(row.message ?? '')),
    ).toBe(true);
  });

  it('by title, matched and rejected without regard to case', async () => {
    const word = describeVideo(ids[0]!).title.split(' ')[0]!;
    const { skipped } = await run({ matchTitle: word.toUpperCase() });
    expect(skipped).toEqual(
      ids.filter((id) => !describeVideo(id).title.toLowerCase().includes(word.toLowerCase())),
    );
    h.close();
    const rejected = await run({ rejectTitle: word.toLowerCase() });
    expect(rejected.skipped).toEqual(
      ids.filter((id) => describeVideo(id).title.toLowerCase().includes(word.toLowerCase())),
    );
  });

  it('by position, counting from the end of the list too', async () => {
    const { skipped } = await run({ items: '1-10,100,-5:' });
    const kept = new Set([...ids.slice(0, 10), ids[99], ...ids.slice(115)]);
    expect(skipped).toEqual(ids.filter((id) => !kept.has(id)));
  });

  it('by publication date: the whole interval the listing allows inside the window, or any of it when asked', async () => {
    // The harness's clock stands at FastClock's start: "1 year ago" is read from when the page was.
    const twoYearsAgo = new Date(new FastClock().time - 730 * 86_400_000).toISOString().slice(0, 10);
    const interval = (row: { listing: { published?: string }; listedAt: string | null }) => {
      const found = publishedInterval(
        row.listing.published,
        row.listedAt === null ? undefined : Date.parse(row.listedAt),
      );
      if (found === undefined) throw new Error(`no interval for ${row.listing.published}`);
      return found;
    };
    const strict = await run({ publishedAfter: twoYearsAgo });
    const straddling = strict.rows.filter(
      (row) => interval(row).from < twoYearsAgo && interval(row).to >= twoYearsAgo,
    );
    expect(straddling.length).toBeGreaterThan(0);
    expect(strict.skipped).toEqual(
      strict.rows.filter((row) => interval(row).from < twoYearsAgo).map((row) => row.videoId),
    );
    for (const row of straddling) expect(row.message).toBe(`perhaps published before ${twoYearsAgo}`);
    expect(h.engine.uncertainDates(strict.job.id)).toBe(straddling.length);
    h.close();

    const overlap = await run({ publishedAfter: twoYearsAgo, publishedOverlap: true });
    expect(overlap.skipped).toEqual(
      overlap.rows.filter((row) => interval(row).to < twoYearsAgo).map((row) => row.videoId),
    );
    expect(overlap.skipped.length).toBe(strict.skipped.length - straddling.length);
  });

  it('keeps no "1 year ago" video in a window of one day: it may be any of 366 days', async () => {
    // The day a year before the page was read, which "1 year ago" was once taken to mean exactly.
    const day = new Date(new FastClock().time - 365 * 86_400_000).toISOString().slice(0, 10);
    const { rows } = await run({ publishedAfter: day, publishedBefore: day });
    expect(rows.filter((row) => row.listing.published === '1 year ago').length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.status !== 'skipped')).toEqual([]);
  });

  it('videos the listing says have no captions, only when asked', async () => {
    const { skipped, rows } = await run({ skipUncaptioned: true });
    expect(skipped).toEqual(ids.filter((id) => !describeVideo(id).hasCaptions));
    expect(rows.filter((row) => row.status === 'unavailable')).toEqual([]);
  });
});
