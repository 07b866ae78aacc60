#!/usr/bin/env node
// `npm run test:model -- --runs N [--seed S] [--skip-rules WORDS] [--shrink-seconds T]`: runs the
// model-based test (tests/model/corpora.test.ts) on more random sequences than `npm test` does.
// --skip-rules leaves out the rules whose names hold one of the comma-separated words (to find the
// next failure once one is known); --shrink-seconds bounds a seed's whole run, shrinking included
// (0, the default, for no bound). Each seed's failure
// is shrunk to a short sequence, printed with its seed and path, and written to
// out/model-failures/seed-<S>.json; copy an entry into tests/model/regressions.json to keep it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    'skip-rules': { type: 'string', default: '' },
    'shrink-seconds': { type: 'string', default: '0' },
  },
});
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write(`--runs ${values.runs}: expected a whole number from 1\n`);
  process.exit(2);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
process.stdout.write(`Model: ${runs} sequence(s) from seed ${values.seed}\n`);
const child = spawn(
  `${root}node_modules/.bin/vitest`,
  ['run', '--project', 'suite', 'tests/model/corpora.test.ts', '-t', 'random sequences'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      MODEL_RUNS: String(runs),
      MODEL_SEEDS: values.seed,
      MODEL_SKIP_RULES: values['skip-rules'],
      MODEL_SHRINK_MS: String(Number(values['shrink-seconds']) * 1000),
      MODEL_TIMEOUT_MS: '0',
    },
  },
);
child.on('close', (code) => process.exit(code ?? 1));
