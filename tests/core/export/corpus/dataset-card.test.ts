import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeCorpus } from '../../../../src/core/export';
import type { ExportInput, ExportVideo } from '../../../../src/core/export';
import { cardLicense, HUB_LICENSE_IDS } from '../../../../src/core/export/corpus/hub-licenses';
import { cffSchemaPath } from '../../../support/cff-schema';

// README.md's front matter is a Hugging Face dataset card: its license must be one the Hub knows, and
// every configuration it lists must load with the `datasets` library.

const CHECK_METADATA = fileURLToPath(new URL('../fixtures/check_metadata.py', import.meta.url));
const SPDX_IDS = z.array(z.string()).parse(createRequire(import.meta.url)('spdx-license-ids/index.json'));

const timed = (number: number, language: string): ExportVideo => ({
  number,
  videoId: `cardVideo${number}0`,
  title: `Talk ${number}`,
  position: number,
  source: 'PLcardList',
  status: 'ok',
  language,
  requestedLanguage: language,
  fetchedAt: '2025-01-02T03:04:05.000Z',
  segmentCount: 3,
  segments: [
    { text: `First words of talk ${number}`, start: 0, duration: 2.5 },
    { text: 'and then more words', start: 2.5, duration: 3 },
    { text: 'the end', start: 70, duration: 1 },
  ],
});

const VIDEOS: ExportVideo[] = [
  timed(1, 'en'),
  timed(2, 'zh-Hans'),
  timed(3, 'pt-BR'),
  {
    number: 4,
    videoId: 'cardVideo40',
    title: '',
    source: 'PLcardList',
    status: 'unavailable',
    httpStatus: 404,
  },
];

function input(license: string | undefined, videos: ExportVideo[] = VIDEOS): ExportInput {
  const ok = videos.filter((video) => video.status === 'ok').length;
  return {
    manifest: {
      tool: { name: 'Scriptorium', version: '1.0.0' },
      job_id: '5',
      sources: ['PLcardList'],
      skipped_sources: [],
      failed_sources: [],
      options: {},
      counts: {
        videos: videos.length,
        ok,
        unavailable: 1,
        failed: 0,
        pending: videos.length - ok - 1,
        skipped: 0,
        sources_failed: 0,
      },
      credits_spent: 4,
      credits_possible: 0,
      finished_at: '2025-01-02T03:04:05.000Z',
      version: 1,
      versions: [{ version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 4, retried: 0, changed: 0 }],
      job_finished: true,
      all_videos_transcribed: true,
    },
    formats: ['txt', 'json', 'chunks'],
    videos: () => videos,
    citation: { authors: [], ...(license !== undefined && { license }) },
  };
}

const CardSchema = z
  .object({
    license: z.string(),
    license_name: z.string().optional(),
    license_link: z.string().optional(),
    language: z.array(z.string()).optional(),
    language_details: z.array(z.string()).optional(),
    task_categories: z.array(z.string()),
    tags: z.array(z.string()),
    configs: z.array(z.object({ config_name: z.string(), data_files: z.string() }).loose()),
  })
  .loose();

/** README.md's front matter as PyYAML reads it from the ZIP. */
function cardOf(zip: string): z.infer<typeof CardSchema> {
  const script =
    'import json, re, sys, zipfile, yaml; ' +
    'readme = zipfile.ZipFile(sys.argv[1]).read("README.md").decode("utf-8"); ' +
    'print(json.dumps(yaml.safe_load(re.match(r"---\\n(.*?)\\n---\\n", readme, re.S).group(1))))';
  return CardSchema.parse(JSON.parse(execFileSync('python3', ['-c', script, zip], { encoding: 'utf8' })));
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-card-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function written(license: string | undefined, videos?: ExportVideo[]): Promise<string> {
  const out = join(dir, `${license ?? 'none'}.zip`);
  await writeCorpus(input(license, videos), out);
  return out;
}

/** How many lines each of the ZIP's entries holds, as Python's zipfile reads them. */
function linesOf(zip: string): Record<string, number> {
  const script =
    'import json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); ' +
    'print(json.dumps({n: len(z.read(n).splitlines()) for n in z.namelist()}))';
  return z
    .record(z.string(), z.number())
    .parse(JSON.parse(execFileSync('python3', ['-c', script, zip], { encoding: 'utf8' })));
}

/** A video still to fetch: a corpus written when a job paused after its list pages (`--budget 1`). */
const pending = (number: number): ExportVideo => ({
  number,
  videoId: `cardVideo${number}0`,
  title: `Talk ${number}`,
  source: 'PLcardList',
  status: 'pending',
});

describe("the dataset card's license", () => {
  it.each([
    ['ODbL-1.0', 'odbl'],
    ['CC-BY-4.0', 'cc-by-4.0'],
    ['GPL-3.0-or-later', 'gpl-3.0'],
    [undefined, 'unknown'],
  ])('for %s is the id the Hub knows, %s', async (spdx, hub) => {
    const card = cardOf(await written(spdx));
    expect(card.license).toBe(hub);
    expect(HUB_LICENSE_IDS).toContain(card.license);
    expect(card).not.toHaveProperty('license_name');
  });

  it('for an SPDX id the Hub lacks is other, named and linked', async () => {
    const out = await written('CC-BY-SA-2.0');
    expect(cardOf(out)).toMatchObject({
      license: 'other',
      license_name: 'cc-by-sa-2.0',
      license_link: 'https://spdx.org/licenses/CC-BY-SA-2.0.html',
    });
    const problems = execFileSync('python3', [CHECK_METADATA, out, await cffSchemaPath()], {
      encoding: 'utf8',
    });
    expect(JSON.parse(problems)).toEqual([]);
  });

  it('is an id of the Hub list, or other with a name and a link, for every SPDX id', () => {
    for (const spdx of SPDX_IDS) {
      const license = cardLicense(spdx);
      expect(HUB_LICENSE_IDS, spdx).toContain(license.license);
      if (license.license === 'other') expect(license, spdx).toMatchObject({ name: spdx.toLowerCase() });
      else expect(license, spdx).not.toHaveProperty('name');
    }
  });
});

describe("the dataset card's configurations", () => {
  it('name only files with records, which `datasets` can read: none of the JSON Lines files without a transcript', async () => {
    const out = await written('CC0-1.0', [pending(1), pending(2), VIDEOS[3]!]);
    const card = cardOf(out);
    expect(card.configs).toEqual([{ config_name: 'index', data_files: 'index.csv', default: true }]);
    const lines = linesOf(out);
    expect(lines['transcripts.jsonl']).toBe(0);
    for (const config of card.configs) expect(lines[config.data_files], config.data_files).toBeGreaterThan(1);
  });

  it('leave chunks.jsonl out when no transcript has passages (none with times)', async () => {
    const untimed: ExportVideo = {
      ...timed(1, 'en'),
      segments: [{ text: 'no times here' }, { text: 'nor here' }],
      segmentCount: 2,
    };
    const out = await written('CC0-1.0', [untimed, VIDEOS[3]!]);
    expect(cardOf(out).configs.map((config) => config.data_files)).toEqual(['transcripts.jsonl']);
    expect(linesOf(out)['chunks.jsonl']).toBe(0);
  });
});

describe("the dataset card's other keys", () => {
  it('list the languages as codes and, case kept, as tags; tasks and tags; JSON Lines configurations only', async () => {
    const card = cardOf(await written('CC0-1.0'));
    expect(card.language).toEqual(['en', 'pt', 'zh']);
    expect(card.language_details).toEqual(['en', 'pt-BR', 'zh-Hans']);
    expect(card.task_categories).toEqual(['text-generation', 'text-retrieval']);
    expect(card.tags).toEqual(expect.arrayContaining(['transcripts', 'text']));
    expect(card.configs.map((config) => config.data_files)).toEqual(['transcripts.jsonl', 'chunks.jsonl']);
  });
});

/**
 * Whether Python's `datasets` library can be imported here. It comes from PyPI, which not every machine
 * reaches (CI installs it when it can, .ci/run): without it the loading itself cannot be tried, and the
 * test says so rather than fail. The card's keys are checked above in any case.
 */
const DATASETS_IMPORTABLE = spawnSync('python3', ['-c', 'import datasets']).status === 0;

const LOAD = `
import json, os, sys
import datasets
folder, configs = sys.argv[1], json.loads(sys.argv[2])
rows = {name: datasets.load_dataset(folder, name, split="train").num_rows for name in configs}
rows["csv index.csv"] = datasets.load_dataset("csv", data_files=os.path.join(folder, "index.csv"), split="train").num_rows
print(json.dumps(rows))
`;

describe.runIf(DATASETS_IMPORTABLE)('datasets.load_dataset (Python datasets is importable here)', () => {
  it('loads every configuration the card lists, and index.csv as the datasheet says', async () => {
    const out = await written('ODbL-1.0');
    const folder = join(dir, 'unzipped');
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      out,
      folder,
    ]);
    const configs = cardOf(out).configs.map((config) => config.config_name);
    const chunks = execFileSync(
      'python3',
      ['-c', 'import sys; print(sum(1 for _ in open(sys.argv[1])))', join(folder, 'chunks.jsonl')],
      { encoding: 'utf8' },
    );
    const rows = execFileSync('python3', ['-c', LOAD, folder, JSON.stringify(configs)], {
      encoding: 'utf8',
      // Offline, with a cache of its own: nothing is downloaded, nothing left behind.
      env: { ...process.env, HF_DATASETS_OFFLINE: '1', HF_HUB_OFFLINE: '1', HF_HOME: join(dir, 'hf') },
    });
    expect(JSON.parse(rows.trim().split('\n').at(-1) ?? '')).toEqual({
      transcripts: 3,
      chunks: Number(chunks),
      'csv index.csv': 4,
    });
  }, 120_000);
});
