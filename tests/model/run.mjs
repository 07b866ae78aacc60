#!/usr/bin/env node
// `npm run test:model -- --runs N [--seed S] [--pieces P] [--skip-rules WORDS] [--pending WORDS]
// [--shrink-seconds T] [--no-shrink] [--replay FILE] [--debug]`: runs the model-based test
// (tests/model/corpora.test.ts) on more random sequences than `npm test` does. --skip-rules leaves
// out the rules whose names hold one of the comma-separated words (to find the next failure once one
// is known); --pending switches on rules pending on main (tests/model/rules.ts, PENDING_RULES: 'all'
// or words of their names); --shrink-seconds bounds a seed's whole run, shrinking included (0, the
// default, for no bound), and --no-shrink stops at the first failure as it is; --replay runs one
// recorded sequence (a file of out/model-failures/) with every rule, --debug tracing each step on
// stderr; --show-pending shows each pending rule, switched on alone, failing on main's behaviour. Each seed's failure is printed with its seed and path and written to
// out/model-failures/seed-<S>.json; copy an entry into tests/model/regressions.json to keep it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    pieces: { type: 'string', default: '12' },
    'skip-rules': { type: 'string', default: '' },
    pending: { type: 'string', default: '' },
    'shrink-seconds': { type: 'string', default: '0' },
    'no-shrink': { type: 'boolean', default: false },
    replay: { type: 'string' },
    debug: { type: 'boolean', default: false },
    'show-pending': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write(`--runs ${values.runs}: expected a whole number from 1\n`);
  process.exit(2);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const filter = values['show-pending']
  ? 'pending on main'
  : values.replay === undefined
    ? 'random sequences'
    : 'replayed';
process.stdout.write(
  values.replay === undefined
    ? `Model: ${runs} sequence(s) from seed ${values.seed}\n`
    : `Model: the sequence of ${values.replay}\n`,
);
const child = spawn(
  `${root}node_modules/.bin/vitest`,
  [
    'run',
    '--project',
    'suite',
    'tests/model/corpora.test.ts',
    '-t',
    filter,
    // No rule pending on main (PENDING_RULES empty) is a pass, not vitest's "no test found".
    ...(values['show-pending'] ? ['--passWithNoTests'] : []),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      MODEL_RUNS: String(runs),
      MODEL_SEEDS: values.seed,
      MODEL_PIECES: values.pieces,
      MODEL_SKIP_RULES: values['skip-rules'],
      MODEL_PENDING: values.pending,
      MODEL_SHRINK_MS: String(Number(values['shrink-seconds']) * 1000),
      MODEL_TIMEOUT_MS: '0',
      ...(values['no-shrink'] && { MODEL_NO_SHRINK: '1' }),
      ...(values.replay !== undefined && { MODEL_REPLAY: values.replay }),
      ...(values.debug && { MODEL_DEBUG: '1' }),
      ...(values['show-pending'] && { MODEL_PENDING_SHOW: '1' }),
    },
  },
);
child.on('close', (code) => process.exit(code ?? 1));
