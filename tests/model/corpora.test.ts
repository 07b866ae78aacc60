/**
 * The model-based test (DESIGN.md, Tests): random sequences of exports, uploads, syncs, kept jobs,
 * faults and retries against the real simulator and a real data folder, every corpus checked against
 * the reference model. `npm test` runs a fixed set of seeds and replays the recorded regressions;
 * `npm run test:model -- --runs N [--seed S]` runs more.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stepArbs, type Step } from './steps';
import { ModelFailure, ModelWorld } from './world';

/**
 * A fast-check command for one step: it runs when the world allows it (a step naming a job needs
 * one). The world is both fast-check's model and its real system: it holds the reference model.
 */
class StepCommand implements fc.AsyncCommand<ModelWorld, ModelWorld, false> {
  constructor(readonly step: Step) {}
  check(world: Readonly<ModelWorld>): boolean {
    return world.canRun(this.step);
  }
  async run(_model: ModelWorld, world: ModelWorld): Promise<void> {
    await world.run(this.step);
  }
  toString(): string {
    return JSON.stringify(this.step);
  }
}

const commandsArb = fc.commands(
  stepArbs.map((arb) => arb.map((step) => new StepCommand(step))),
  { maxCommands: 10 },
);

/** Runs the steps in a fresh world; closes it whatever happens. */
async function runSteps(
  commands: Iterable<fc.AsyncCommand<ModelWorld, ModelWorld>>,
  only?: readonly string[],
): Promise<void> {
  const world = await ModelWorld.start(only);
  try {
    await fc.asyncModelRun(() => ({ model: world, real: world }), commands);
  } finally {
    await world.close();
  }
}

const SEEDS = (process.env['MODEL_SEEDS'] ?? '20261128,33,4242').split(',').map(Number);
const RUNS = Number(process.env['MODEL_RUNS'] ?? 4);
/**
 * A bound on a whole seed's run, shrinking included (test:model's --shrink-seconds), off by default:
 * the sequences run to their end however slow the machine, and a failure shrinks to its shortest.
 */
const LIMIT_MS = Number(process.env['MODEL_SHRINK_MS'] ?? 0);
/**
 * A sequence's commands, shrinking included, may take minutes on a busy machine: a guard, not a
 * verdict. test:model's long runs set MODEL_TIMEOUT_MS=0 (none): 2,000 sequences take over half an hour.
 */
const TIMEOUT_MS = Number(process.env['MODEL_TIMEOUT_MS'] ?? 30 * 60_000);

/** Writes the shrunk sequence where a regression can be copied from: out/model-failures/seed-<S>.json. */
function record(seed: number, where: string, failure: ModelFailure): string {
  const folder = new URL('../../out/model-failures/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL(`seed-${seed}.json`, folder);
  const found = failure.violations.map((violation) => violation.rule).join('; ');
  writeFileSync(file, `${JSON.stringify({ found, where, steps: failure.steps }, null, 2)}\n`);
  return file.pathname;
}

describe('corpora against the reference model', () => {
  for (const seed of SEEDS) {
    test(
      `seed ${seed}: ${RUNS} random sequences keep every rule`,
      async () => {
        let failure: ModelFailure | undefined;
        const details = await fc.check(
          fc.asyncProperty(commandsArb, async (commands) => {
            try {
              await runSteps(commands);
            } catch (error) {
              if (error instanceof ModelFailure) failure = error;
              throw error;
            }
          }),
          { seed, numRuns: RUNS, ...(LIMIT_MS > 0 && { plugins: [fc.interruptAfterTimeLimit(LIMIT_MS)] }) },
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
  steps: Step[];
}

const REGRESSIONS = JSON.parse(
  readFileSync(new URL('./regressions.json', import.meta.url), 'utf8'),
) as Regression[];

describe.runIf(REGRESSIONS.length > 0)('recorded regressions', () => {
  for (const [i, regression] of REGRESSIONS.entries()) {
    test(
      `${i + 1}: ${regression.found}`,
      async () => {
        await runSteps(
          regression.steps.map((step) => new StepCommand(step)),
          regression.rules,
        );
      },
      TIMEOUT_MS,
    );
  }
});
