import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  describeChannel,
  describePlaylist,
  describeVideo,
  startSimulator,
  type RunningSimulator,
} from '../../src/simulator';
import { cffSchemaPath } from '../support/cff-schema';
import { readZip, runCli, tempDir } from '../support/cli';

const CHECK_METADATA = fileURLToPath(new URL('../core/export/fixtures/check_metadata.py', import.meta.url));

/** The part of datapackage-js (frictionlessdata's validator, a dev dependency) this test uses. */
interface DataResource {
  name: string;
  tabular: boolean;
  read(options: { relations: boolean; keyed: boolean }): Promise<Array<Record<string, unknown>>>;
}
interface DataPackage {
  valid: boolean;
  errors: Error[];
  resources: DataResource[];
}
const datapackage = createRequire(import.meta.url)('datapackage') as {
  Package: { load(descriptor: string, basePath?: string): Promise<DataPackage> };
};

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

const CHANNEL = '@validated_channel_n10';

/** Unzips with Python's zipfile into a folder of its own; returns the folder. */
function unzipped(zip: string): string {
  const folder = join(dir, 'unzipped');
  execFileSync('python3', [
    '-c',
    'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
    zip,
    folder,
  ]);
  return folder;
}

describe('a corpus with its authors, license and two sources for one video', () => {
  it('validates: sha256sum -c, datapackage-js with its keys, CITATION.cff against CFF 1.2.0, the front matter', async () => {
    const ids = describeChannel(CHANNEL).videoIds();
    const twice = ids.find((id) => describeVideo(id).hasCaptions)!;
    const failing = ids.find((id) => id !== twice && describeVideo(id).hasCaptions)!;
    sim.admin.addFault({ match: { videoId: failing }, kind: 'status', status: 500 });
    const out = join(dir, 'corpus.zip');
    const exported = await runCli(
      [
        'export',
        CHANNEL,
        twice,
        '--author',
        'Ada Lovelace',
        '--orcid',
        '0000-0002-1825-0097',
        '--author',
        'Babbage, Charles',
        '--title',
        'Talks of one channel',
        '--description',
        'Every talk of the channel, to study how its speakers explain.',
        '--license',
        'cc-by-4.0',
        '--out',
        out,
      ],
      env,
    );
    expect(exported.code, exported.stderr).toBe(5);

    const folder = unzipped(out);
    const checked = spawnSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], {
      cwd: folder,
      encoding: 'utf8',
    });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);

    const dataPackage = await datapackage.Package.load(join(folder, 'datapackage.json'));
    expect(dataPackage.errors.map(String)).toEqual([]);
    expect(dataPackage.valid).toBe(true);
    const tables = dataPackage.resources.filter((resource) => resource.tabular);
    expect(tables.map((resource) => resource.name).sort()).toEqual([
      'changes',
      'errors',
      'index',
      'memberships',
    ]);
    // Every row casts to its field's type, and every foreign key finds its row of index.csv (read with
    // relations, a key that finds nothing throws).
    const rows = new Map<string, Array<Record<string, unknown>>>();
    for (const table of tables) {
      await table.read({ relations: true, keyed: true });
      rows.set(table.name, await table.read({ relations: false, keyed: true }));
    }
    expect(rows.get('errors')!.map((row) => row['video_id'])).toContain(failing);

    const descriptor = z
      .object({
        title: z.string(),
        description: z.string(),
        version: z.string(),
        licenses: z.array(z.object({ name: z.string() }).loose()),
        contributors: z.array(z.object({ title: z.string() }).loose()),
      })
      .loose()
      .parse(JSON.parse(readFileSync(join(folder, 'datapackage.json'), 'utf8')));
    expect(descriptor).toMatchObject({
      title: 'Talks of one channel',
      description: 'Every talk of the channel, to study how its speakers explain.',
      licenses: [{ name: 'CC-BY-4.0' }],
    });
    expect(descriptor.contributors.map((contributor) => contributor.title)).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
    ]);

    const problems = execFileSync('python3', [CHECK_METADATA, out, await cffSchemaPath()], {
      encoding: 'utf8',
    });
    expect(JSON.parse(problems)).toEqual([]);
    const citation = readFileSync(join(folder, 'CITATION.cff'), 'utf8');
    expect(citation).toContain('family-names: "Lovelace"');
    expect(citation).toContain('orcid: "https://orcid.org/0000-0002-1825-0097"');
    expect(citation).toContain('license: "CC-BY-4.0"');

    // The video given by itself keeps both memberships, and index.csv the channel's list data.
    const zip = await readZip(out);
    // Provenance for a methods section: the service's address (never the key) and API version, how
    // words are counted and with which ICU; the job finished, though a video has no transcript.
    expect(zip.manifest).toMatchObject({
      service: { name: 'Video Transcript Service', api_version: 'v2', addresses: [`${sim.url}/`] },
      word_count: { icu: process.versions.icu },
      job_finished: true,
      all_videos_transcribed: false,
    });
    expect(JSON.stringify(zip.manifest)).not.toContain(sim.key);
    expect(zip.readme).toContain(
      `Service: the Video Transcript Service, API version \`v2\`, at \`${sim.url}/\`.`,
    );
    expect(zip.readme).toContain(`ICU \`${process.versions.icu}\``);
    const header = zip.index[0]!;
    const row = zip.index.find((cells) => cells[0] === twice)!;
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('source')).toBe(CHANNEL);
    expect(cell('channel_title')).not.toBe('');
    expect(cell('position')).toBe(String(ids.indexOf(twice) + 1));
    const memberships = rows.get('memberships')!.filter((membership) => membership['video_id'] === twice);
    expect(memberships.map((membership) => membership['source'])).toEqual([CHANNEL, twice]);
  });

  it('keeps a language tag as asked (zh-Hans) in requested_language, the records and the card', async () => {
    const PLAYLIST = 'PLhansCaptions_n40';
    const ids = describePlaylist(PLAYLIST).videoIds();
    const position = ids.findIndex((id) => describeVideo(id).languages.includes('zh-Hans')) + 1;
    expect(position).toBeGreaterThan(0);
    const out = join(dir, 'hans.zip');
    const exported = await runCli(
      ['export', PLAYLIST, '--items', String(position), '--lang', 'zh-Hans', '--out', out],
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const zip = await readZip(out);
    const header = zip.index[0]!;
    const row = zip.index.find((cells) => cells[0] === ids[position - 1])!;
    expect(row[header.indexOf('requested_language')]).toBe('zh-Hans');
    expect(zip.transcripts.map((record) => record['requested_language'])).toEqual(['zh-Hans']);
    const card = z
      .object({ language: z.array(z.string()), language_details: z.array(z.string()) })
      .loose()
      .parse(
        JSON.parse(
          execFileSync(
            'python3',
            [
              '-c',
              'import json, re, sys, zipfile, yaml; readme = zipfile.ZipFile(sys.argv[1]).read("README.md").decode(); ' +
                'print(json.dumps(yaml.safe_load(re.match(r"---\\n(.*?)\\n---\\n", readme, re.S).group(1))))',
              out,
            ],
            { encoding: 'utf8' },
          ),
        ),
      );
    expect(card).toMatchObject({ language: ['zh'], language_details: ['zh-Hans'] });
  });

  it.each([
    [
      ['--orcid', '0000-0002-1825-0098', '--author', 'Ada Lovelace'],
      /--author\/--orcid: .*last character does not check/,
    ],
    [['--license', 'CC-BY-5.0'], /--license: "CC-BY-5.0" is not an SPDX license id/],
    [['--orcid', '0000-0002-1825-0097'], /1 --orcid for 0 --author/],
  ])('refuses %j up front, sending nothing', async (args, message) => {
    const result = await runCli(['export', CHANNEL, ...args, '--out', join(dir, 'x.zip')], env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(message);
    expect(sim.admin.requests()).toEqual([]);
  });
});
