import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describePlaylist, describeVideo } from '../../src/simulator';
import { readZip, runCli, startCliSetup, type CliSetup } from '../support/cli';

// A version of a corpus names one artefact: any change of its bytes is a new version, released by the
// export that makes it; an export that would change nothing writes the same version, byte for byte.

let setup: CliSetup;
beforeEach(async () => {
  setup = await startCliSetup(10_000);
});
afterEach(() => setup.sim.close());

/** A CSV entry of a ZIP as Python's zipfile and csv read it. */
function csvEntry(zip: string, name: string): string[][] {
  const script =
    'import csv, io, json, sys, zipfile; ' +
    'text = zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode("utf-8"); ' +
    'print(json.dumps(list(csv.reader(io.StringIO(text, newline="")))))';
  return JSON.parse(execFileSync('python3', ['-c', script, zip, name], { encoding: 'utf8' })) as string[][];
}

/** CITATION.cff's version and release date, as a YAML reader reads them. */
function cited(zip: string): { version: string; released: string } {
  const script =
    'import json, sys, yaml, zipfile; ' +
    'cff = yaml.safe_load(zipfile.ZipFile(sys.argv[1]).read("CITATION.cff")); ' +
    'print(json.dumps({"version": cff["version"], "released": cff["date-released"]}))';
  return JSON.parse(execFileSync('python3', ['-c', script, zip], { encoding: 'utf8' })) as {
    version: string;
    released: string;
  };
}

/** manifest.json's versions, as written. */
const VersionsSchema = z.array(
  z.object({
    version: z.number(),
    released_at: z.string(),
    added: z.number(),
    retried: z.number(),
    changed: z.number(),
    metadata: z.number(),
  }),
);

const same = (a: string, b: string): boolean => readFileSync(a).equals(readFileSync(b));

async function exported(args: string[], out: string, code = 0): Promise<string> {
  const result = await runCli(['export', ...args, '--out', out], setup.env);
  expect(result.code, result.stderr).toBe(code);
  return result.stdout;
}

describe('an export again with other authorship, license or formats', () => {
  const PLAYLIST = 'PLversionedCitation_n6';

  it('is a new version, released then, whose changes.csv says what changed; exported again, the same bytes', async () => {
    const out = join(setup.dir, 'corpus.zip');
    await exported([PLAYLIST, '--author', 'Ada Lovelace', '--license', 'CC-BY-4.0'], out);
    const first = join(setup.dir, 'v1.zip');
    execFileSync('cp', [out, first]);
    expect((await readZip(first)).manifest.version).toBe(1);

    const before = new Date().toISOString();
    const said = await exported([PLAYLIST, '--license', 'ODbL-1.0', '--title', 'Six talks'], out);
    const after = new Date().toISOString();
    // One plain line per part of the citation that changed; the author given before is kept.
    expect(said).toContain('\n  Title: "Six talks" (before: made from its sources)\n');
    expect(said).toContain('\n  License: ODbL-1.0 (before: CC-BY-4.0)\n');
    expect(said).not.toContain('Authors:');
    const second = await readZip(out);
    expect(second.manifest.version).toBe(2);
    const released = VersionsSchema.parse(second.manifest.versions).at(-1)!;
    expect(released).toEqual({
      version: 2,
      released_at: expect.any(String),
      added: 0,
      retried: 0,
      changed: 0,
      metadata: 2,
    });
    // Released by that export, at its time.
    const releasedAt = released.released_at;
    expect(releasedAt >= before && releasedAt <= after, releasedAt).toBe(true);
    expect(cited(out)).toEqual({ version: '2', released: releasedAt.slice(0, 10) });
    expect(csvEntry(out, 'changes.csv')).toEqual([
      ['version', 'video_id', 'change', 'detail'],
      // Each part given replaces its own, alone: the author kept with the job is kept.
      ['2', '', 'metadata', 'title: none -> Six talks'],
      ['2', '', 'metadata', 'license: CC-BY-4.0 -> ODbL-1.0'],
    ]);
    expect((await readZip(out)).citation).toContain('family-names: "Lovelace"');
    expect((await runCli(['verify', out], setup.env)).code).toBe(0);

    // The same command again: the same version, the file at --out left as it was, and a copy elsewhere
    // byte for byte the same.
    const written = statSync(out).mtimeMs;
    await exported([PLAYLIST, '--license', 'ODbL-1.0', '--title', 'Six talks'], out);
    expect(statSync(out).mtimeMs).toBe(written);
    const again = join(setup.dir, 'again.zip');
    await exported([PLAYLIST], again);
    expect(same(again, out)).toBe(true);

    // Back to the first license, the title cleared: another version still (its history differs from
    // version 1's).
    const cleared = await exported(
      [PLAYLIST, '--no-title', '--license', 'CC-BY-4.0', '--formats', 'txt,json'],
      out,
    );
    expect(cleared).toContain('\n  Title: made from its sources (before: "Six talks")\n');
    const third = await readZip(out);
    expect(third.manifest.version).toBe(3);
    expect(csvEntry(out, 'changes.csv').slice(3)).toEqual([
      ['3', '', 'metadata', 'title: Six talks -> none'],
      ['3', '', 'metadata', 'license: ODbL-1.0 -> CC-BY-4.0'],
      ['3', '', 'metadata', 'formats: txt,json,srt,vtt -> txt,json'],
    ]);

    // --no-author clears the authors; the stand-in author names the corpus again.
    await exported([PLAYLIST, '--no-author', '--formats', 'txt,json'], out);
    expect(csvEntry(out, 'changes.csv').at(-1)).toEqual([
      '4',
      '',
      'metadata',
      'authors: Ada Lovelace -> none',
    ]);
    expect((await readZip(out)).citation).toContain('  - name: "Scriptorium user"\n');
    expect(same(first, out)).toBe(false);
  });

  it.each([
    ['--title', ''],
    ['--description', ' '],
    ['--license', ''],
  ])('refuses %s %j, naming the form that clears it, sending nothing', async (option, value) => {
    const result = await runCli(
      ['export', PLAYLIST, option, value, '--out', join(setup.dir, 'x.zip')],
      setup.env,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${option} is empty: to clear the ${option.slice(2)} kept with the job, give --no-${option.slice(2)}.`,
    );
    expect(setup.sim.admin.requests()).toEqual([]);
  });

  it('with the same authors, given in the same words, changes nothing', async () => {
    const args = [PLAYLIST, '--author', 'Lovelace, Ada', '--orcid', '0000-0002-1825-0097'];
    const [a, b] = [join(setup.dir, 'a.zip'), join(setup.dir, 'b.zip')];
    await exported(args, a);
    await exported(['--author', 'Ada Lovelace 0000-0002-1825-0097', ...args.slice(0, 1)], b);
    expect(same(a, b)).toBe(true);
    expect(csvEntry(b, 'changes.csv')).toHaveLength(1);
  });
});

describe('a retry', () => {
  /** A playlist of which some videos have no captions: the service has no transcript for them. */
  const PLAYLIST = 'PLversionedRetries_n40';
  const uncaptioned = describePlaylist(PLAYLIST)
    .videoIds()
    .filter((id) => !describeVideo(id).hasCaptions);

  it('that changes nothing (all still unavailable) makes no version, changes.csv row or CITATION version', async () => {
    expect(uncaptioned.length).toBeGreaterThan(0);
    const out = join(setup.dir, 'corpus.zip');
    await exported([PLAYLIST], out);
    const first = join(setup.dir, 'v1.zip');
    execFileSync('cp', [out, first]);
    const written = statSync(out).mtimeMs;

    await exported([PLAYLIST, '--retry-unavailable'], out);
    // Asked again, and still unavailable: the corpus is the same, byte for byte, and the file stays.
    const asked = setup.sim.admin
      .requests()
      .filter(
        (request) =>
          request.path.endsWith('/transcript') && uncaptioned.includes(request.query['video_url'] ?? ''),
      );
    expect(asked).toHaveLength(2 * uncaptioned.length);
    expect(statSync(out).mtimeMs).toBe(written);
    expect(same(first, out)).toBe(true);
    const again = join(setup.dir, 'again.zip');
    await exported([PLAYLIST], again);
    expect(same(first, again)).toBe(true);
    expect((await readZip(again)).manifest).toMatchObject({ version: 1 });
    expect(cited(again).version).toBe('1');
    expect(csvEntry(again, 'changes.csv')).toEqual([['version', 'video_id', 'change', 'detail']]);
  });

  it('that changes something is the next version, and says what it changed', async () => {
    const failing = describePlaylist(PLAYLIST)
      .videoIds()
      .find((id) => describeVideo(id).hasCaptions)!;
    setup.sim.admin.addFault({ match: { videoId: failing }, kind: 'status', status: 500 });
    const out = join(setup.dir, 'corpus.zip');
    await exported([PLAYLIST], out, 5);
    setup.sim.admin.clearFaults();

    await exported([PLAYLIST, '--retry-failed', '--retry-unavailable'], out);
    const zip = await readZip(out);
    expect(zip.manifest.version).toBe(2);
    // The unavailable videos were asked again too, and stayed so: only the failed one is listed.
    expect(csvEntry(out, 'changes.csv').slice(1)).toEqual([
      ['2', failing, 'retried', expect.stringMatching(/^failed( \(.*\))? -> ok$/)],
    ]);
  });
});

describe('a sync that finds nothing', () => {
  // A channel's sync asks the free channel/latest and reads no page; a playlist's reads it whole
  // again, finding every video where it was (its listed_at stays the read that put it there).
  it.each(['@versioned_quiet_n8', 'PLversionedQuietPlaylist_n8'])(
    'leaves the corpus of %s as it was: the same version and bytes',
    async (list) => {
      const out = join(setup.dir, 'corpus.zip');
      await exported([list], out);
      const first = join(setup.dir, 'v1.zip');
      execFileSync('cp', [out, first]);
      expect((await runCli(['sync', '1'], setup.env)).code).toBe(0);
      const again = join(setup.dir, 'again.zip');
      await exported([list], again);
      expect(same(first, again)).toBe(true);
    },
  );
});
