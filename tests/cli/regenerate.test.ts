import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeChannel, describeVideo } from '../../src/simulator';
import { readZip, runCli, startCliSetup, type CliSetup } from '../support/cli';

// `export --version N` writes version N of a job byte for byte as it was released, from the data
// folder alone, after any number of later syncs, retries and changes of the citation (issue 43,
// item 9): each version written again has the SHA-256 of the ZIP released at the time.

let setup: CliSetup;
beforeEach(async () => {
  setup = await startCliSetup(10_000);
});
afterEach(() => setup.sim.close());

const CHANNEL = '@regenerated_talks_n9';

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

async function cli(args: string[], code = 0): Promise<{ stdout: string; stderr: string }> {
  const result = await runCli(args, setup.env);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(code);
  return result;
}

/** The job's database, opened apart from the CLI to change what a test needs changed. */
function database(): Database.Database {
  return new Database(join(setup.dir, 'data', 'scriptorium.db'));
}

describe('export --version N', () => {
  it('writes every version of a long history again, each byte for byte the ZIP released then', async () => {
    const out = join(setup.dir, 'corpus.zip');
    const released = join(setup.dir, 'released');
    mkdirSync(released);
    const versions: string[] = [];
    /** Exports the job as it is now and keeps the ZIP of the version it released. */
    const release = async (args: string[], code = 0): Promise<void> => {
      await cli(['export', CHANNEL, ...args, '--out', out], code);
      const { version } = (await readZip(out)).manifest;
      expect(version).toBe(versions.length + 1);
      const kept = join(released, `v${version}.zip`);
      copyFileSync(out, kept);
      versions.push(kept);
    };

    const failing = describeChannel(CHANNEL)
      .videoIds()
      .find((id) => describeVideo(id).hasCaptions)!;
    setup.sim.admin.addFault({ match: { videoId: failing }, kind: 'status', status: 500 });
    await release(['--title', 'Talks of a channel'], 5);
    // A sync with uploads: new videos, and every earlier one moved down the channel.
    setup.sim.admin.addUploads(CHANNEL, 2);
    await cli(['sync', '1']);
    await release([], 5);
    // A retry that changes a video.
    setup.sim.admin.clearFaults();
    await release(['--retry-failed']);
    // A title change, then a change of who made it and under what license.
    await release(['--title', 'Talks of a channel, renamed']);
    await release(['--author', 'Ada Lovelace', '--license', 'CC-BY-3.0-DE']);
    // More uploads, a sync that finds nothing, and an export that changes nothing (the same version).
    setup.sim.admin.addUploads(CHANNEL, 1);
    await cli(['sync', '1']);
    await cli(['sync', '1']);
    await release([]);
    await cli(['export', CHANNEL, '--out', out]);
    expect((await readZip(out)).manifest.version).toBe(versions.length);
    expect(versions).toHaveLength(6);

    const requests = setup.sim.admin.requests().length;
    const again = join(setup.dir, 'again');
    mkdirSync(again);
    for (const [index, kept] of versions.entries()) {
      const version = index + 1;
      const path = join(again, `v${version}.zip`);
      const { stdout } = await cli(['export', CHANNEL, '--version', String(version), '--out', path]);
      expect(sha256(path), `version ${version}`).toBe(sha256(kept));
      expect(stdout).toContain(`SHA-256: ${sha256(kept)}`);
    }
    // Written over the latest corpus, an earlier version is the same bytes too.
    await cli(['export', CHANNEL, '--version', '2', '--out', out]);
    expect(sha256(out)).toBe(sha256(versions[1]!));
    // From the data folder alone: nothing was sent.
    expect(setup.sim.admin.requests()).toHaveLength(requests);
  }, 300_000);

  it('refuses plainly a version that does not exist, one released before its inputs were kept, and one of another corpus format', async () => {
    const out = join(setup.dir, 'corpus.zip');
    await cli(['export', CHANNEL, '--out', out]);
    await cli(['export', CHANNEL, '--title', 'Renamed', '--out', out]);
    const refused = async (version: number, message: RegExp): Promise<void> => {
      const { stderr } = await cli(
        ['export', CHANNEL, '--version', String(version), '--out', join(setup.dir, 'x.zip')],
        2,
      );
      expect(stderr.trim().split('\n').at(-1)).toMatch(message);
    };
    await refused(3, /^Job 1 has no version 3: its corpus has versions 1 to 2\. Nothing was written\.$/);

    const db = database();
    try {
      // As a data folder of an earlier Scriptorium holds it.
      db.prepare('UPDATE versions SET inputs = NULL WHERE version = 1').run();
      const inputs = db
        .prepare<[], { inputs: string }>('SELECT inputs FROM versions WHERE version = 2')
        .get()!;
      const recorded = JSON.parse(inputs.inputs) as { build: { corpusVersion: number } };
      recorded.build.corpusVersion -= 1;
      db.prepare('UPDATE versions SET inputs = ? WHERE version = 2').run(JSON.stringify(recorded));
    } finally {
      db.close();
    }
    await refused(
      1,
      /^Version 1 of job 1 was released by an earlier Scriptorium, which did not keep what it was written from: it cannot be written again\./,
    );
    await refused(
      2,
      /^Version 2 of job 1 was written by a Scriptorium that writes corpora otherwise \(corpus format \d+, here \d+\)/,
    );

    const mixed = await runCli(
      ['export', CHANNEL, '--version', '1', '--license', 'CC0-1.0', '--out', out],
      setup.env,
    );
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      '--version 1 writes that version as it was released: the citation options cannot go with it.',
    );
  });
});
