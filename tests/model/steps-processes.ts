/**
 * The steps that need a real `bin/scriptorium` process (processes.ts): an export stopped by a signal
 * when the simulator receives the command's k-th request (docs/product.md, the interrupt rule), and a
 * second process asking for a job the first runs (exit 7). The simulator holds its answers from the
 * k-th request on, so what the process had answered when the signal came is fixed by the event, not
 * by the machine's speed.
 */
import { modelClock } from './clock';
import type { ModelJob } from './job';
import { CliProcess, type Exited } from './processes';
import { exitsWith, type ModelWorld } from './world';
import type { Step } from './steps';
import type { Violation } from './rules';

type KillStep = Extract<Step, { op: 'kill' }>;

/** Resolves with the seq of the `count`-th API request the simulator receives from now, holding every answer from it on. */
function holdAt(
  world: ModelWorld,
  count: number,
): { reached: Promise<number>; release: () => void; stop: () => void } {
  let seen = 0;
  let release = (): void => undefined;
  let stop = (): void => undefined;
  const reached = new Promise<number>((resolve) => {
    stop = world.sim.admin.onRequest((request) => {
      seen += 1;
      if (seen !== count) return;
      stop();
      release = world.sim.admin.holdAnswers();
      resolve(request.seq);
    });
  });
  return { reached, release: () => release(), stop: () => stop() };
}

/** The job's export in a child process, and its command line (written over the job's own ZIP). */
function exportProcess(world: ModelWorld, job: ModelJob): { child: CliProcess; path: string } {
  const path = world.zipPath(job, 'same');
  const args = world.exportArgs(job, job.args, { out: 'same' }, path);
  return { child: new CliProcess(args.slice(), { TRANSCRIPT_API_KEY: world.sim.key }), path };
}

/**
 * An export stopped by `signal` at the simulator's `atRequest`-th request: SIGINT or SIGTERM once (the
 * answers in flight are let go once the process says it is stopping: they finish and are kept),
 * twice ('force': they are cut), or SIGKILL (never answered). A process that ends before that many
 * requests was simply an export, checked as one.
 */
export async function killStep(world: ModelWorld, step: KillStep): Promise<Violation[]> {
  const job = world.pick(step.job, false)!;
  world.last = job;
  const start = modelClock.now();
  const hold = holdAt(world, step.atRequest);
  const { child, path } = exportProcess(world, job);
  const heldFrom = await Promise.race([hold.reached, child.done.then(() => undefined)]);
  hold.stop();
  if (heldFrom !== undefined) await stop(child, step.signal, hold.release);
  hold.release();
  const exited = await child.done;
  const kill =
    heldFrom === undefined
      ? 'none'
      : step.signal === 'SIGKILL'
        ? 'sigkill'
        : step.signal === 'force'
          ? 'force'
          : 'drain';
  const end = modelClock.now();
  const log = world.logSince(kill === 'sigkill' || kill === 'force' ? heldFrom : undefined);
  const span = { start, end, ...(kill === 'sigkill' && { until: Number.MAX_SAFE_INTEGER }) };
  const chargedBefore = job.charged;
  const expected = world.model.run(job, 'export', { log, span, kill });
  world.attribute(log);
  expected.violations.push(...world.model.unexpectedPaid(log));
  // What a killed process was charged it may never have recorded.
  if (kill === 'sigkill') job.slack += job.charged - chargedBefore;
  const result = { code: exited.code, stdout: exited.stdout, message: CliProcess.lastLine(exited) };
  if (kill === 'none')
    return [
      ...expected.violations,
      ...(await world.afterExport(job, { out: 'same' }, job.args, { result, expected, path })),
    ];
  return [
    ...expected.violations,
    ...exitsWith(
      result,
      step.signal === 'SIGKILL' ? [137] : [130],
      `interrupt: ${step.signal === 'SIGKILL' ? 'a killed process' : 'a stopped export exits 130, state saved'}`,
    ),
  ];
}

async function stop(child: CliProcess, signal: KillStep['signal'], release: () => void): Promise<void> {
  switch (signal) {
    case 'SIGKILL':
      child.signal('SIGKILL');
      await child.done;
      return;
    case 'force':
      child.signal('SIGINT');
      await child.printed('Stopping:');
      child.signal('SIGINT');
      await child.done;
      return;
    default:
      child.signal(signal);
      await child.printed('Stopping:');
      release();
  }
}

/**
 * A second process asks for the job while a first runs it (held at its first request): exit 7, and
 * the first goes on to its end, checked as any export.
 */
export async function busyStep(world: ModelWorld, step: Extract<Step, { op: 'busy' }>): Promise<Violation[]> {
  const job = world.pick(step.job, false)!;
  world.last = job;
  const start = modelClock.now();
  const hold = holdAt(world, 1);
  const { child, path } = exportProcess(world, job);
  const heldFrom = await Promise.race([hold.reached, child.done.then(() => undefined)]);
  hold.stop();
  const violations: Violation[] = [];
  if (heldFrom !== undefined) {
    const second = await world.runInProcess(
      world.exportArgs(job, job.args, { out: 'new' }, world.zipPath(job, 'new')),
    );
    violations.push(...exitsWith(second, [7], 'busy: a second process asking for a running job exits 7'));
  }
  hold.release();
  const exited: Exited = await child.done;
  const log = world.logSince();
  const expected = world.model.run(job, 'export', {
    log,
    span: { start, end: modelClock.now() },
    kill: 'none',
  });
  world.attribute(log);
  expected.violations.push(...world.model.unexpectedPaid(log));
  const result = { code: exited.code, stdout: exited.stdout, message: CliProcess.lastLine(exited) };
  return [
    ...violations,
    ...expected.violations,
    ...(await world.afterExport(job, { out: 'same' }, job.args, { result, expected, path })),
  ];
}
