import type { Command } from 'commander';
import type { CreditView, JobDetail, JobView } from '../../shared/contract';
import {
  DAILY_LIMIT_STOP_CODE,
  ITEM_STATUS,
  JOB_STATUS,
  JOB_STATUS_WORDS,
  STOP_REASON,
} from '../../shared/vocabulary';
import { printable } from '../../core/app';
import { withApp } from '../environment';
import { invocation } from '../invocation';
import { continueArguments, SOURCES_ON_THE_LINE } from '../job-options';
import { plural } from '../plural';

export function registerJobsCommand(program: Command): void {
  program
    .command('jobs')
    .description('List jobs with their status, counts, credits, and how to continue those that stopped.')
    .option('--json', "print the jobs as JSON (the contract's job views)", false)
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (flags: { json: boolean; dataDir?: string }) => {
      await withApp(flags, async (api) => {
        const jobs = await api.listJobs({});
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(jobs, null, 2)}\n`);
          return;
        }
        const credits = await api.creditStatus({});
        const details = await Promise.all(
          jobs.filter(needsAction).map((job) => api.jobDetail({ jobId: job.id })),
        );
        process.stdout.write(formatJobsTable(jobs));
        for (const detail of details) process.stdout.write(describeStop(detail));
        process.stdout.write(describeCredits(credits));
      });
    });
}

/**
 * A plain table: one row per job, named as every face names it. A column for each status a video can
 * have, so that they add up to its videos.
 */
export function formatJobsTable(jobs: JobView[]): string {
  if (jobs.length === 0)
    return 'No jobs yet. Start one with `scriptorium export <source>... --out FILE.zip`.\n';
  const counted = [
    ITEM_STATUS.ok,
    ITEM_STATUS.unavailable,
    ITEM_STATUS.failed,
    ITEM_STATUS.skipped,
    ITEM_STATUS.pending,
  ] as const;
  const header = ['job', 'status', 'videos', ...counted, 'credits', 'created', 'name'];
  const rows = jobs.map((job) => [
    String(job.id),
    describeStatus(job),
    String(job.counts.total),
    ...counted.map((status) => String(job.counts[status])),
    String(job.creditsSpent),
    job.createdAt.slice(0, 16).replace('T', ' '),
    printable(job.title),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)].join('\n') + '\n';
}

/** "waiting for credits"; a finished job with failures says how many ("completed, 2 failed"). */
function describeStatus(job: JobView): string {
  const status = JOB_STATUS_WORDS[job.status];
  return job.status === JOB_STATUS.completed && job.counts.failed > 0
    ? `${status}, ${job.counts.failed} failed`
    : status;
}

/** Jobs that stopped before their end, or ended with gaps: the user has something to do. */
function needsAction(job: JobView): boolean {
  return (
    job.stop !== null ||
    job.status === JOB_STATUS.draft ||
    (job.status === JOB_STATUS.completed && (job.counts.failed > 0 || job.sourcesFailed > 0))
  );
}

/** "Job 2 stopped: <why>. Continue with: ./bin/scriptorium export ... --out corpus.zip" */
function describeStop(detail: JobDetail): string {
  const { job } = detail;
  const stoppedForBudget = job.stop?.reason === STOP_REASON.budget;
  const byDailyLimit = stoppedForBudget && job.stop?.code === DAILY_LIMIT_STOP_CODE;
  const args = continueArguments(detail, detail.exportPath ?? 'FILE.zip');
  if (job.counts.failed > 0) args.push('--retry-failed');
  const command = [invocation(), ...args].map(shellQuote).join(' ');
  // A cancelled job is stopped for good: its command makes a new job, reusing what this one bought.
  const next =
    job.status === JOB_STATUS.cancelled
      ? 'A new job of its sources, reusing what it bought at no cost'
      : 'Continue with';
  // One period at the end, whatever the message ends with ("…is not valid.").
  const lines = [`Job ${job.id} ${whyItStopped(job).replace(/[.!?]$/, '')}.`, `  ${next}: ${command}`];
  if (byDailyLimit) lines.push('  (or let the first `scriptorium sync --all` after midnight continue it)');
  else if (stoppedForBudget)
    lines.push(`  (with a --budget larger than its ${job.budget ?? 0} credits, to buy more)`);
  if (job.sources.length > SOURCES_ON_THE_LINE)
    lines.push(
      `  (FILE_OF_ITS_${job.sources.length}_SOURCES: the file of sources you gave it, one per line)`,
    );
  return `${lines.join('\n')}\n`;
}

/** Why the job needs the user, without saying the same word twice ("cancelled: cancelled"). */
function whyItStopped(job: JobView): string {
  if (job.status === JOB_STATUS.draft) return 'was created but not started';
  if (job.stop === null) {
    // Only what it lacks: never "and 0 lists not walked".
    const gaps = [
      job.counts.failed > 0 ? plural(job.counts.failed, 'failed video') : '',
      job.sourcesFailed > 0 ? `${plural(job.sourcesFailed, 'list')} not walked` : '',
    ].filter((gap) => gap !== '');
    return `finished with ${gaps.join(' and ')}`;
  }
  const status = JOB_STATUS_WORDS[job.status];
  const message = job.stop.message ?? '';
  return message === '' || message === job.status || message === job.stop.reason
    ? `is ${status}`
    : `is ${status}: ${message}`;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9@._:/=%+,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function describeCredits(credits: CreditView): string {
  const lines = [`Credits spent: ${credits.today} today, ${credits.total} in total.`];
  if (credits.possible > 0)
    lines.push(`  of which ${credits.possible} possibly charged (requests sent and never answered).`);
  if (credits.last402) {
    lines.push(
      `Last refusal for credits: ${credits.last402.meaning} (${credits.last402.code}) at ${credits.last402.at}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}
