import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/shared/sources';
import { readZip, runCli, tempDir } from '../support/cli';
import { sourceAsExported } from '../simulator/source-as-exported';

describe('scriptorium demo', () => {
  it('runs a realistic job on its own simulator with no key and writes a ZIP with a summary', async () => {
    const dir = tempDir();
    const out = join(dir, 'demo.zip');
    const result = await runCli(['demo', '--out', out], { TRANSCRIPT_API_KEY: undefined });
    expect(result.code, result.stderr).toBe(0);

    const zip = await readZip(out);
    const rows = zip.index.slice(1);
    const count = (status: string) => rows.filter((row) => row[3] === status).length;
    expect(zip.path_problems).toEqual([]);
    expect(new Set(zip.manifest.sources).size).toBe(6);
    // The sources a user sees in the manifest are the lists they look like, with realistic IDs,
    // and the ZIP holds every video they bring (the _n<N> sizes do not depend on the demo's seed).
    const sources = zip.manifest.sources.map((source) => ({ source, ...sourceAsExported(source) }));
    expect(sources.map(({ kind }) => kind)).toEqual([
      'playlist',
      'channel',
      'video',
      'video',
      'video',
      'video',
    ]);
    expect(rows).toHaveLength(sources.reduce((sum, { videos }) => sum + (videos ?? 0), 0));
    for (const source of zip.manifest.sources) {
      const check = parseSource(source);
      if (check.ok && check.source.kind === 'playlist') expect([18, 34]).toContain(check.source.id.length);
    }
    expect(count('unavailable')).toBeGreaterThanOrEqual(2);
    expect(rows.find((row) => row[0] === 'nocapDemo01')?.[3]).toBe('unavailable');
    expect(result.stdout).toContain(`videos:         ${rows.length}`);
    expect(result.stdout).toContain(`transcripts:    ${count('ok')}`);
    expect(result.stdout).toContain(`unavailable:    ${count('unavailable')}`);
    expect(result.stdout).toContain(`credits spent:  ${zip.manifest.credits_spent}`);
    expect(result.stdout).toContain(`ZIP:            ${out}`);
    expect(result.stdout).toMatch(/time: +\d+\.\d s/);
  });
});
