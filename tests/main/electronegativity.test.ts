import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { tempDir } from '../support/cli';

const script = fileURLToPath(new URL('../../scripts/electronegativity.mjs', import.meta.url));

it('electronegativity, told the Electron version, finds nothing above LOW but its reminder to review the preload', async () => {
  const report = join(tempDir(), 'electronegativity.csv');
  const code = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, [script, report], { stdio: 'ignore' }).on('close', resolve),
  );
  expect(code).toBe(0);
  // One finding per line that starts with its check's name (a sample may span lines).
  const findings = readFileSync(report, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+_(CHECK|JS_CHECK|HTML_CHECK)\b/.test(line))
    .map((line) => ({ check: line.split(',')[0], severity: line.split(',')[1]?.replaceAll('"', '') }));
  expect(findings.length).toBeGreaterThan(0);
  const aboveLow = findings.filter(
    (finding) => finding.severity !== 'LOW' && finding.severity !== 'INFORMATIONAL',
  );
  expect(aboveLow.map((finding) => finding.check)).toEqual(['PRELOAD_JS_CHECK']);
}, 120_000);
