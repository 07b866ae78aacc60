/**
 * The model-based test (DESIGN.md, Tests; tests/model/README.md): random sequences of exports,
 * syncs, uploads, playlist edits, faults, kills and more against the real simulator and a real data
 * folder, every command followed by the reference model and every corpus checked against it.
 * `npm test` runs a fixed set of seeds and replays the recorded regressions;
 * `npm run test:model -- --runs N [--seed S]` runs more.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sequenceArb, type Sequence } from './generate';
import { PENDING_RULES, type PendingRule } from './rules';
import type { Step } from './steps';
import { ModelFailure, ModelWorld } from './world';

/** Runs the steps in a fresh world (those it cannot run now are passed over); closes it whatever happens. */
async function runSequence(
  sequence: Sequence,
  only?: readonly string[],
  pending?: ReadonlySet<PendingRule>,
): Promise<void> {
  const world = await ModelWorld.start(sequence.pageSize, only, pending);
  try {
    for (const step of sequence.steps) if (world.canRun(step)) await world.run(step);
  } finally {
    await world.close();
  }
}

const SEEDS = (process.env['MODEL_SEEDS'] ?? '20261128,33,4242').split(',').map(Number);
const RUNS = Number(process.env['MODEL_RUNS'] ?? 4);
/** Pieces (a step, or an order of steps that matters) per sequence. */
const PIECES = Number(process.env['MODEL_PIECES'] ?? 12);
/**
 * A bound on a whole seed's run, shrinking included (test:model's --shrink-seconds), off by default:
 * the sequences run to their end however slow the machine, and a failure shrinks to its shortest.
 */
const LIMIT_MS = Number(process.env['MODEL_SHRINK_MS'] ?? 0);
/** Stop at the first failure without shrinking it (test:model:power, which only asks whether one fails). */
const NO_SHRINK = process.env['MODEL_NO_SHRINK'] === '1';
/**
 * A sequence's commands, shrinking included, may take minutes on a busy machine: a guard, not a
 * verdict. test:model's long runs set MODEL_TIMEOUT_MS=0 (none).
 */
const TIMEOUT_MS = Number(process.env['MODEL_TIMEOUT_MS'] ?? 30 * 60_000);

/** Writes the shrunk sequence where a regression can be copied from: out/model-failures/seed-<S>.json. */
function record(seed: number, where: string, failure: ModelFailure): string {
  const folder = new URL('../../out/model-failures/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL(`seed-${seed}.json`, folder);
  const found = failure.violations.map((violation) => violation.rule).join('; ');
  const rules = [...new Set(failure.violations.map((violation) => violation.rule))];
  const entry = { found, rules, pageSize: failure.pageSize, steps: failure.steps };
  writeFileSync(file, `${JSON.stringify({ where, ...entry }, null, 2)}\n`);
  return file.pathname;
}

describe('corpora against the reference model', () => {
  for (const seed of SEEDS) {
    test(
      `seed ${seed}: ${RUNS} random sequences keep every rule`,
      async () => {
        let failure: ModelFailure | undefined;
        const details = await fc.check(
          fc.asyncProperty(sequenceArb(PIECES), async (sequence) => {
            try {
              await runSequence(sequence);
            } catch (error) {
              if (error instanceof ModelFailure) failure = error;
              throw error;
            }
          }),
          {
            seed,
            numRuns: RUNS,
            endOnFailure: NO_SHRINK,
            ...(LIMIT_MS > 0 && { interruptAfterTimeLimit: LIMIT_MS }),
          },
        );
        if (details.failed) {
          const where = `seed ${seed}, path "${details.counterexamplePath}", after ${details.numRuns} sequence(s)`;
          const file = failure === undefined ? '' : `\n(recorded in ${record(seed, where, failure)})`;
          throw new Error(`${where}:\n${failure?.message ?? String(details.errorInstance)}${file}`);
        }
        expect(details.numRuns).toBeGreaterThan(0);
      },
      TIMEOUT_MS,
    );
  }
});

interface Regression {
  /** What the sequence found, in a few words. */
  found: string;
  /** Words of the rules it is about: only those count, so that it fails for its own case. */
  rules: string[];
  /** The simulator's page size (100 when not given). */
  pageSize?: number;
  steps: Step[];
}

const REGRESSIONS = JSON.parse(
  readFileSync(new URL('./regressions.json', import.meta.url), 'utf8'),
) as Regression[];

/** A recorded failure to run again (test:model's --replay FILE), with every rule. */
const REPLAY = process.env['MODEL_REPLAY'];

// Registered only when asked for, so that npm test counts no skipped case.
if (REPLAY !== undefined) {
  describe('a recorded sequence, replayed', () => {
    test(
      REPLAY,
      async () => {
        const recorded = JSON.parse(readFileSync(REPLAY, 'utf8')) as Regression;
        await runSequence({ pageSize: recorded.pageSize ?? 100, steps: recorded.steps });
      },
      TIMEOUT_MS,
    );
  });
}

/**
 * MODEL_PENDING_SHOW=1 (`npm run test:model -- --show-pending`): each rule pending on main, switched
 * on alone, fails on its own sequence (rules.ts, PENDING_RULES). Once the branch that keeps it has
 * merged, its sequence passes, this fails, and the rule is to be switched on for good.
 */
describe.runIf(process.env['MODEL_PENDING_SHOW'] === '1')(
  'rules pending on main, each switched on alone',
  () => {
    for (const { rule, branch, shownBy } of PENDING_RULES) {
      test(
        `"${rule}" (${branch}) fails on this build`,
        async () => {
          const sequence = { pageSize: shownBy.pageSize, steps: [...shownBy.steps] as Step[] };
          await expect(runSequence(sequence, undefined, new Set([rule]))).rejects.toThrow(rule);
          // Off, the same sequence keeps every other rule.
          await runSequence(sequence, undefined, new Set());
        },
        TIMEOUT_MS,
      );
    }
  },
);

interface Scenario {
  /** Where features meet, in a few words. */
  scenario: string;
  pageSize: number;
  steps: Step[];
}

/** Sequences written by hand where features meet, each judged by every rule (MODEL_SCENARIOS=0 leaves them out). */
const SCENARIOS = JSON.parse(
  readFileSync(new URL('./scenarios.json', import.meta.url), 'utf8'),
) as Scenario[];

describe.runIf(process.env['MODEL_SCENARIOS'] !== '0')('scenarios where features meet', () => {
  for (const [i, { scenario, pageSize, steps }] of SCENARIOS.entries()) {
    test(`${i + 1}: ${scenario}`, async () => runSequence({ pageSize, steps }), TIMEOUT_MS);
  }
});

describe.runIf(REGRESSIONS.length > 0)('recorded regressions', () => {
  for (const [i, regression] of REGRESSIONS.entries()) {
    test(
      `${i + 1}: ${regression.found}`,
      async () => {
        await runSequence(
          { pageSize: regression.pageSize ?? 100, steps: regression.steps },
          regression.rules,
        );
      },
      TIMEOUT_MS,
    );
  }
});
