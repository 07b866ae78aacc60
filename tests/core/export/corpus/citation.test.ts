import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ExportInput } from '../../../../src/core/export';
import { CFF_LICENSE_IDS } from '../../../../src/core/export/corpus/cff-licenses';
import { renderCitation } from '../../../../src/core/export/corpus/citation';
import { renderDataPackage } from '../../../../src/core/export/corpus/data-package';
import { cardLicense, HUB_LICENSE_IDS } from '../../../../src/core/export/corpus/hub-licenses';
import { parseLicense } from '../../../../src/shared/citation';
import { cffSchemaPath } from '../../../support/cff-schema';

// Every license id `--license` takes (the SPDX License List, spdx-license-ids) gives a CITATION.cff the
// published CFF 1.2.0 schema accepts, a datapackage.json datapackage-js accepts, and a dataset card
// license the Hub knows (issue 43, item 2).

const CHECK_CITATIONS = fileURLToPath(new URL('../fixtures/check_citations.py', import.meta.url));
const require = createRequire(import.meta.url);
const SPDX_IDS = z.array(z.string()).parse(require('spdx-license-ids/index.json'));
const datapackage = require('datapackage') as {
  Package: {
    load(descriptor: unknown, basePath?: string): Promise<{ valid: boolean; errors: Error[] }>;
  };
};

function input(license: string): ExportInput {
  return {
    manifest: {
      tool: { name: 'Scriptorium', version: '1.0.0' },
      job_id: '3',
      sources: ['PLlicensed'],
      skipped_sources: [],
      failed_sources: [],
      options: {},
      counts: { videos: 1, ok: 1, unavailable: 0, failed: 0, pending: 0, skipped: 0, sources_failed: 0 },
      credits_spent: 2,
      credits_possible: 0,
      finished_at: '2025-01-02T03:04:05.000Z',
      version: 1,
      versions: [{ version: 1, releasedAt: '2025-01-02T03:04:05.000Z', added: 1, retried: 0, changed: 0 }],
      job_finished: true,
      all_videos_transcribed: true,
    },
    videos: () => [],
    citation: { authors: [{ familyNames: 'Lovelace', givenNames: 'Ada' }], license },
  };
}

describe('every license id --license takes', () => {
  it('is every id of the SPDX License List, as the list spells it', () => {
    expect(SPDX_IDS.length).toBeGreaterThan(700);
    for (const id of SPDX_IDS) expect(parseLicense(id.toLowerCase())).toEqual({ ok: true, license: id });
  });

  it("gives a CITATION.cff the CFF 1.2.0 schema accepts: `license` when CFF's list has it, else `license-url`", async () => {
    const schemaPath = await cffSchemaPath();
    const texts = Object.fromEntries(SPDX_IDS.map((id) => [id, renderCitation(input(id))]));
    const problems = execFileSync('python3', [CHECK_CITATIONS, schemaPath], {
      input: JSON.stringify(texts),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(JSON.parse(problems)).toEqual([]);
    // Data licenses CFF 1.2.0's list predates, named by their SPDX page.
    for (const id of ['CDLA-Permissive-2.0', 'CC-BY-3.0-DE', 'CC-BY-3.0-IGO', 'DL-DE-BY-2.0', 'NLOD-2.0']) {
      expect(texts[id]).toContain(`\nlicense-url: "https://spdx.org/licenses/${id}.html"\n`);
      expect(texts[id]).not.toMatch(/^license:/m);
    }
    expect(texts['CC-BY-4.0']).toContain('\nlicense: "CC-BY-4.0"\n');
  });

  it('gives a datapackage.json that datapackage-js (Frictionless) finds valid', async () => {
    const invalid: string[] = [];
    for (const id of SPDX_IDS) {
      const descriptor: unknown = JSON.parse(renderDataPackage(input(id), false));
      const loaded = await datapackage.Package.load(descriptor, tmpdir());
      if (!loaded.valid) invalid.push(`${id}: ${loaded.errors.map(String).join('; ')}`);
    }
    expect(invalid).toEqual([]);
  });

  it('gives a dataset card a license the Hub knows, or `other` with an id-like name and its SPDX page', () => {
    for (const id of SPDX_IDS) {
      const license = cardLicense(id);
      expect(HUB_LICENSE_IDS, id).toContain(license.license);
      if ('name' in license) {
        expect(license.name, id).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
        expect(license.link, id).toBe(`https://spdx.org/licenses/${id}.html`);
      }
    }
  });
});

describe("CFF 1.2.0's license list", () => {
  it('is the enum of the published schema, no more and no less', async () => {
    const schema = z
      .object({ definitions: z.object({ 'license-enum': z.object({ enum: z.array(z.string()) }) }) })
      .loose()
      .parse(JSON.parse(readFileSync(await cffSchemaPath(), 'utf8')));
    expect([...CFF_LICENSE_IDS].sort()).toEqual([...schema.definitions['license-enum'].enum].sort());
  });
});
