import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describePlaylist, describeVideo, startSimulator, type RunningSimulator } from '../../src/simulator';
import { readZip, runCli, tempDir } from '../support/cli';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dir = tempDir();
  env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: join(dir, 'data'),
  };
});
afterEach(() => sim.close());

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/** The text of a ZIP's entry as Python's zipfile reads it. */
function textEntry(zip: string, name: string): string {
  const script =
    'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))';
  return execFileSync('python3', ['-c', script, zip, name], { encoding: 'utf8' });
}

/** A CSV entry of a ZIP as Python's zipfile and csv read it. */
function csvEntry(zip: string, name: string): string[][] {
  const script =
    'import csv, io, json, sys, zipfile; ' +
    'text = zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode("utf-8"); ' +
    'print(json.dumps(list(csv.reader(io.StringIO(text, newline="")))))';
  return JSON.parse(execFileSync('python3', ['-c', script, zip, name], { encoding: 'utf8' })) as string[][];
}

describe('selection flags', () => {
  const PLAYLIST = 'PLresearchSelectedList_n80';
  const flags = ['--min-duration', '300', '--items', '1-60', '--skip-uncaptioned'];

  it('preview says what each filter leaves out; export skips exactly those, buying nothing for them', async () => {
    const ids = describePlaylist(PLAYLIST).videoIds();
    const kept = ids
      .slice(0, 60)
      .filter((id) => describeVideo(id).lengthSeconds >= 300 && describeVideo(id).hasCaptions);

    const preview = await runCli(['preview', PLAYLIST, ...flags], env);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/left out by a filter: 20 videos \(not at positions 1-60\)/);
    expect(preview.stdout).toMatch(/left out by a filter: \d+ videos? \(shorter than 300 s/);
    expect(preview.stdout).toMatch(new RegExp(`at most ${kept.length} credit`));

    const out = join(dir, 'selected.zip');
    const exported = await runCli(['export', PLAYLIST, ...flags, '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = (await readZip(out)).index.slice(1);
    expect(rows.filter((row) => row[3] !== 'skipped').map((row) => row[0])).toEqual(kept);
    // The summary and the last progress line count the skipped videos among those done.
    const skipped = ids.length - kept.length;
    expect(exported.stdout).toMatch(
      new RegExp(`videos: 80, transcripts: \\d+, unavailable: \\d+, failed: 0, skipped: ${skipped}`),
    );
    const progressLines = exported.stderr.split('\n').filter((line) => / videos · /.test(line));
    expect(progressLines.at(-1)).toMatch(new RegExp(`^80/80 videos · .* · ${skipped} skipped · `));
    expect(
      sim.admin
        .ledger()
        .filter((charge) => charge.endpoint === 'transcript')
        .map((c) => c.videoId),
    ).toEqual(expect.arrayContaining(kept));
    expect(sim.admin.ledger().filter((charge) => charge.endpoint === 'transcript')).toHaveLength(kept.length);
  });

  it('preview counts the videos whose rough date may fall outside the window, left out unless --published-overlap', async () => {
    const threeYearsAgo = new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10);
    const strict = await runCli(['preview', PLAYLIST, '--published-after', threeYearsAgo], env);
    expect(strict.code, strict.stderr).toBe(0);
    const uncertain = /perhaps outside the window: (\d+) \(left out; --published-overlap keeps them\)/.exec(
      strict.stdout,
    );
    expect(Number(uncertain?.[1])).toBeGreaterThan(0);
    expect(strict.stdout).toContain(
      `left out by a filter: ${uncertain?.[1]} videos (perhaps published before ${threeYearsAgo})`,
    );

    const overlap = await runCli(
      ['preview', PLAYLIST, '--published-after', threeYearsAgo, '--published-overlap'],
      env,
    );
    expect(overlap.code, overlap.stderr).toBe(0);
    expect(overlap.stdout).toContain(
      `perhaps outside the window: ${uncertain?.[1]} (kept, as --published-overlap asks)`,
    );
    expect(overlap.stdout).not.toContain('perhaps published before');
  });

  it('are part of the job: other filters make another job', async () => {
    await runCli(['preview', PLAYLIST, '--items', '1-5'], env);
    await runCli(['preview', PLAYLIST, '--items', '1-6'], env);
    const jobs = JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as unknown[];
    expect(jobs).toHaveLength(2);
  });

  it.each([
    [['--match-title', '(unclosed'], /--match-title \(unclosed: not a regular expression/],
    [
      ['--published-after', '31/05/2024'],
      /--published-after 31\/05\/2024: expected a date such as 2024-05-31/,
    ],
    [['--items', '1-,x'], /--items 1-,x: "1-" is not a position/],
    [
      ['--published-after', '2024-06-01', '--published-before', '2024-05-01'],
      /--published-after 2024-06-01 is later than --published-before 2024-05-01/,
    ],
    [['--published-overlap'], /--published-overlap needs --published-after or --published-before/],
    [['--min-duration', '600', '--max-duration', '60'], /--min-duration 600 is more than --max-duration 60/],
    [
      ['--chunk-seconds', '30', '--chunk-overlap', '30'],
      /--chunk-overlap 30 must be shorter than --chunk-seconds 30/,
    ],
  ])('refuses %j with a plain line and nothing sent', async (args, message) => {
    const result = await runCli(['export', PLAYLIST, ...args, '--out', join(dir, 'x.zip')], env);
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toMatch(message);
    expect(sim.admin.requests()).toEqual([]);
  });
});

describe('scriptorium sync', () => {
  it('brings a channel up to date with only its new videos, then export writes the whole corpus', async () => {
    const args = ['export', '@research_synced_n20', '--out', join(dir, 'channel.zip')];
    expect((await runCli(args, env)).code).toBe(0);
    const before = sim.admin.ledger().length;

    const quiet = await runCli(['sync', '1'], env);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/Job 1 brought up to date: nothing new: it cost 0 credits/);
    expect(sim.admin.ledger()).toHaveLength(before);

    sim.admin.addUploads('@research_synced_n20', 3);
    const grown = await runCli(['sync', '1'], env);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stdout).toMatch(/3 new videos/);
    const bought = sim.admin.ledger().length - before;
    expect((await runCli(args, env)).code).toBe(0);
    const corpus = await readZip(join(dir, 'channel.zip'));
    expect(corpus.index.slice(1)).toHaveLength(23);
    // The manifest records each sync: when, how many new videos, and what it cost.
    expect(corpus.manifest.syncs).toEqual([
      { at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), new_videos: 0, credits: 0 },
      { at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), new_videos: 3, credits: bought },
    ]);
  });

  it('keeps every earlier file as it was: a sync adds files, changes.csv names exactly them, verify passes both', async () => {
    const CHANNEL = '@research_versioned_n20';
    const first = join(dir, 'v1.zip');
    expect((await runCli(['export', CHANNEL, '--out', first], env)).code).toBe(0);
    sim.admin.addUploads(CHANNEL, 3);
    expect((await runCli(['sync', '1'], env)).code).toBe(0);
    const second = join(dir, 'v2.zip');
    expect((await runCli(['export', CHANNEL, '--out', second], env)).code).toBe(0);

    const [v1, v2] = [await readZip(first), await readZip(second)];
    // read_zip.py gives each entry's SHA-256 too.
    const transcriptFiles = (zip: typeof v1) =>
      (zip.entries as Array<{ name: string; sha256: string }>).filter((entry) => entry.name.includes('/'));
    // Every file of version 1 is in version 2 under the same name with the same bytes, json files too:
    // a record keeps the position its channel gave when it first listed the video.
    const later = new Map(transcriptFiles(v2).map((entry) => [entry.name, entry.sha256]));
    expect(transcriptFiles(v1).some((entry) => entry.name.startsWith('json/'))).toBe(true);
    for (const { name, sha256 } of transcriptFiles(v1)) expect(later.get(name), name).toBe(sha256);
    expect(transcriptFiles(v1).every((entry) => /\/\d{6} - /.test(entry.name))).toBe(true);
    // The lines of transcripts.jsonl too; memberships.csv and index.csv say where the channel puts each
    // video now: the three new uploads lead, the earlier videos moved down by three places.
    const lines = (zip: string) => textEntry(zip, 'transcripts.jsonl').trimEnd().split('\n');
    expect(lines(second).slice(0, lines(first).length)).toEqual(lines(first));
    const positionsOf = (rows: string[][]) => {
      const column = rows[0]?.indexOf('position') ?? -1;
      return new Map(rows.slice(1).map((row) => [row[0], Number(row[column])]));
    };
    for (const table of ['memberships.csv', 'index.csv']) {
      const [before, now] = [positionsOf(csvEntry(first, table)), positionsOf(csvEntry(second, table))];
      expect(before.size, table).toBe(20);
      for (const [id, position] of before) expect(now.get(id), `${table} ${id}`).toBe(position + 3);
    }

    // changes.csv lists exactly the three new videos, as version 2's additions.
    const newIds = v2.index
      .slice(1)
      .map((row) => row[0])
      .filter((id) => !v1.index.slice(1).some((row) => row[0] === id));
    expect(newIds).toHaveLength(3);
    expect(csvEntry(first, 'changes.csv')).toEqual([['version', 'video_id', 'change', 'detail']]);
    expect(csvEntry(second, 'changes.csv')).toEqual([
      ['version', 'video_id', 'change', 'detail'],
      ...newIds.map((id) => ['2', id, 'added', CHANNEL]),
    ]);
    expect(csvEntry(second, 'memberships.csv')).toHaveLength(24);
    expect([v1.manifest, v2.manifest]).toMatchObject([{ version: 1 }, { version: 2 }]);
    const citation = textEntry(second, 'CITATION.cff');
    expect(citation).toMatch(/^version: "2"$/m);
    expect(citation).toMatch(/^date-released: "\d{4}-\d\d-\d\d"$/m);

    for (const zip of [first, second]) expect((await runCli(['verify', zip], env)).code).toBe(0);
    // Exported again, the same version gives the same bytes.
    const again = join(dir, 'v2-again.zip');
    expect((await runCli(['export', CHANNEL, '--out', again], env)).code).toBe(0);
    expect(readFileSync(again).equals(readFileSync(second))).toBe(true);
  });

  it('refuses a job that does not exist or has not finished', async () => {
    expect(lastLine((await runCli(['sync', '7'], env)).stderr)).toMatch(/There is no job 7/);
    expect(
      (
        await runCli(
          ['export', 'PLresearchUnfinished_n30', '--budget', '2', '--out', join(dir, 'u.zip')],
          env,
        )
      ).code,
    ).toBe(3);
    const refused = await runCli(['sync', '1'], env);
    expect(refused.code).toBe(2);
    expect(lastLine(refused.stderr)).toMatch(/Job 1 has not finished/);
  });

  it('that runs out of budget says so, and points to the command that finishes the job', async () => {
    const args = ['export', '@research_budgeted_n20', '--budget', '30', '--out', join(dir, 'b.zip')];
    expect((await runCli(args, env)).code).toBe(0);
    sim.admin.addUploads('@research_budgeted_n20', 25);

    const stopped = await runCli(['sync', '1'], env);
    expect(stopped.code).toBe(3);
    expect(stopped.stdout).toMatch(/Job 1: the sync found 25 new videos, spent \d+ credits?, and stopped/);
    expect(stopped.stdout).not.toMatch(/brought up to date/);
    expect(lastLine(stopped.stderr)).toMatch(
      /spent its budget of 30 credits\. Progress is saved: run the command `scriptorium jobs` shows for job 1 with a larger --budget to finish it\.$/,
    );

    // That command, with a larger budget, buys the rest and writes the whole corpus.
    const finished = await runCli([...args.slice(0, 2), '--budget', '100', ...args.slice(4)], env);
    expect(finished.code, finished.stderr).toBe(0);
    expect((await readZip(join(dir, 'b.zip'))).index.slice(1)).toHaveLength(45);
  });
});

describe('chunks.jsonl', () => {
  const PLAYLIST = 'PLresearchChunkedList_n200';
  const TARGET = 30;
  const OVERLAP = 10;
  /** Times are written in milliseconds' precision. */
  const EPSILON = 0.001;

  interface TimedSegment {
    start: number;
    duration: number;
  }

  const inOrderOnce = (ids: string[]): string[] => ids.filter((id, at) => ids.indexOf(id) === at);

  it('cuts every transcript into passages of at most --chunk-seconds that overlap by about --chunk-overlap', async () => {
    // Videos whose captions come every two seconds or less: next to a 10 s overlap, consecutive
    // passages share nearly all of it (made of whole segments, they never share exactly 10 s).
    const positions = describePlaylist(PLAYLIST)
      .videoIds()
      .flatMap((id, at) => {
        const video = describeVideo(id);
        return video.hasCaptions && video.lengthSeconds / video.segments <= 2 ? [at + 1] : [];
      });
    expect(positions.length).toBeGreaterThanOrEqual(3);
    const out = join(dir, 'chunks.zip');
    const exported = await runCli(
      ['export', PLAYLIST, '--items', positions.join(','), '--formats', 'txt,chunks'].concat([
        '--chunk-seconds',
        String(TARGET),
        '--chunk-overlap',
        String(OVERLAP),
        '--out',
        out,
      ]),
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);

    // Python read each line of chunks.jsonl as one whole JSON record.
    const zip = await readZip(out);
    // chunks.jsonl's records, with the two fields this test reads beyond the helper's type.
    const chunks = (zip.chunks ?? []) as Array<
      NonNullable<typeof zip.chunks>[number] & { chunk_id: string; language: string | null }
    >;
    const [header = [], ...rows] = zip.index;
    const okIds = rows
      .filter((row) => row[header.indexOf('status')] === 'ok')
      .map((row) => row[header.indexOf('video_id')]);
    expect(okIds).toHaveLength(positions.length);
    expect(inOrderOnce(chunks.map((chunk) => chunk.video_id))).toEqual(okIds);
    expect(zip.manifest.options).toMatchObject({ chunk_seconds: TARGET, chunk_overlap: OVERLAP });

    for (const record of zip.transcripts) {
      const lines = String(record['text']).split('\n');
      const spoken = (record.segments as TimedSegment[]).filter((_, at) => lines[at] !== '');
      const transcriptStart = Math.min(...spoken.map((segment) => segment.start));
      const transcriptEnd = Math.max(...spoken.map((segment) => segment.start + segment.duration));
      const widestGap = Math.max(...spoken.slice(1).map((segment, at) => segment.start - spoken[at]!.start));
      const text = lines.filter((line) => line !== '').join(' ');
      const own = chunks.filter((chunk) => chunk.video_id === record.video_id);
      expect(own.length, record.video_id).toBeGreaterThan(1);

      for (const chunk of own) {
        expect(Object.keys(chunk).sort()).toEqual([
          'chunk_id',
          'end',
          'language',
          'start',
          'text',
          'title',
          'url',
          'video_id',
        ]);
        // An ID of its own: the video and where the passage starts in ms (-2... when two start alike).
        expect(chunk.chunk_id).toMatch(
          new RegExp(`^${record.video_id}@${Math.round(chunk.start * 1000)}(-\\d+)?$`),
        );
        expect(chunk.language).toBe(record['language']);
        expect(chunk.title).toBe(record['title']);
        expect(chunk.url).toBe(
          `https://www.youtube.com/watch?v=${record.video_id}&t=${Math.floor(chunk.start)}s`,
        );
        expect(chunk.start).toBeGreaterThanOrEqual(transcriptStart - EPSILON);
        expect(chunk.end).toBeLessThanOrEqual(transcriptEnd + EPSILON);
        expect(chunk.end - chunk.start).toBeLessThanOrEqual(TARGET + EPSILON);
        expect(chunk.text).not.toBe('');
        expect(text).toContain(chunk.text);
      }
      for (const [at, next] of own.slice(1).entries()) {
        const previous = own[at]!;
        const overlap = previous.end - next.start;
        expect(next.start).toBeGreaterThan(previous.start);
        expect(overlap).toBeLessThanOrEqual(OVERLAP + EPSILON);
        expect(overlap).toBeGreaterThan(OVERLAP - widestGap - EPSILON);
      }
      // Every caption is in a passage.
      for (const segment of spoken) {
        const end = segment.start + segment.duration;
        expect(
          own.some((chunk) => chunk.start <= segment.start + EPSILON && end <= chunk.end + EPSILON),
          `${record.video_id} at ${segment.start}`,
        ).toBe(true);
      }
    }
  });
});
