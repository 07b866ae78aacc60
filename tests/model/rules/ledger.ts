/**
 * Credits against the simulator's ledger (docs/product.md, Request policy; the interrupt rule): each
 * job's credits are what the ledger charged for the requests of its runs (the reference attributes
 * every charge to the job whose run asked for it), never what the app says of itself; no job spends
 * beyond its budget; after a kill, credits spent (possibly charged included) are never below what the
 * service charged.
 */
import { runCommand } from '../cli-in-process';
import type { ModelJob } from '../job';
import type { CommandLog } from '../log';
import type { ReferenceModel } from '../reference';
import { unless, type Violation } from '../rules';

interface JobCredits {
  id: number;
  /** Credits the job spent, those possibly charged included. */
  creditsSpent: number;
  creditsPossible: number;
}

/** The app's view of each job's credits (`jobs --json`), to set against the ledger. */
async function jobCredits(dataDir: string): Promise<JobCredits[]> {
  const result = await runCommand(['jobs', '--json', '--data-dir', dataDir]);
  return result.code === 0 ? (JSON.parse(result.stdout) as JobCredits[]) : [];
}

/**
 * After every step: each job's credits are what the ledger charged its runs, possibly charged ones
 * included; a process killed before it recorded what it was charged may leave them short by what
 * that kill cut (on main: the pending rule wants none short).
 */
export async function creditsAgree(
  model: ReferenceModel,
  dataDir: string,
  ledger: readonly unknown[],
): Promise<Violation[]> {
  const views = model.jobs.length === 0 ? [] : await jobCredits(dataDir);
  const wrong: string[] = [];
  const short: string[] = [];
  for (const job of model.jobs) {
    const view = views.find((candidate) => candidate.id === job.id);
    if (view === undefined) continue;
    const spent = view.creditsSpent;
    if (spent > job.charged || spent < job.charged - job.slack)
      wrong.push(
        `job ${job.id}: the app says ${spent} (${view.creditsPossible} possibly), the ledger charged its runs ${job.charged}`,
      );
    if (spent < job.charged) short.push(`job ${job.id}: ${spent} recorded, ${job.charged} charged`);
  }
  const attributed = model.jobs.reduce((sum, job) => sum + job.charged, 0);
  return [
    ...unless("credits: each job's credits are what the ledger charged its runs", wrong),
    ...unless('credits: never understated after a kill', short),
    ...unless(
      'credits: every credit the ledger charged is for a run of some job',
      attributed === ledger.length
        ? []
        : [`the ledger charged ${ledger.length}, the jobs' runs ${attributed}`],
    ),
  ];
}

/** A run spends within its job's budget: nothing past it, list pages included. */
export function spentWithinBudget(job: ModelJob, chargedBefore: number): Violation[] {
  if (job.budget === undefined) return [];
  const allowed = Math.max(job.budget, chargedBefore);
  return unless(
    'budget: a job never spends beyond its --budget',
    job.charged > allowed + job.slack
      ? [`job ${job.id}: budget ${job.budget}, spent ${chargedBefore} before this run, ${job.charged} after`]
      : [],
  );
}

/**
 * A run the budget stopped has spent it: the budget stops a run only when no credit is left for the
 * next paid request (docs/product.md: exit 3, "this job has spent its budget"), never while requests
 * it could still pay for were in flight.
 */
export function budgetSpentWhenStopped(job: ModelJob, exit: { code: number; message: string }): Violation[] {
  if (exit.code !== 3 || job.budget === undefined || !/spent its budget/.test(exit.message)) return [];
  return unless(
    'budget: a run the budget stopped has spent it',
    job.charged < job.budget
      ? [`job ${job.id}: stopped for a budget of ${job.budget} with ${job.charged} spent`]
      : [],
  );
}

/** What each 402 code asks of the user, in the words the CLI's message must hold (docs/product.md). */
const PAYMENT_WORDS = { grant: /subscribe/i, paid: /top up/i, paused: /resume/i } as const;

/** A run a 402 stopped pauses with exit 3 and says what the code asks: top up, subscribe, resume the plan. */
export function paymentNamed(
  result: { code: number; message: string },
  log: CommandLog,
  plan: keyof typeof PAYMENT_WORDS,
): Violation[] {
  if (!log.calls.some((call) => call.status === 402 && call.answered)) return [];
  return unless(
    'credits: a 402 pauses with exit 3 and says what to do (top up, subscribe, resume the plan)',
    result.code === 3 && PAYMENT_WORDS[plan].test(result.message)
      ? []
      : [`exit ${result.code}: ${result.message}`],
  );
}
