import type { Command } from 'commander';
import type { CreditView, JobDetail, JobView } from '../../shared/contract';
import { DAILY_LIMIT_STOP_CODE, ITEM_STATUS, JOB_STATUS, STOP_REASON } from '../../shared/vocabulary';
import { withApp } from '../environment';
import { invocation } from '../invocation';
import { continueArguments, SOURCES_ON_THE_LINE } from '../job-options';

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

/** A plain table: one row per job. */
export function formatJobsTable(jobs: JobView[]): string {
  if (jobs.length === 0)
    return 'No jobs yet. Start one with `scriptorium export <source>... --out FILE.zip`.\n';
  // A column for each status a finished video can have, and one for those still to fetch.
  const counted = [ITEM_STATUS.ok, ITEM_STATUS.unavailable, ITEM_STATUS.failed, ITEM_STATUS.pending] as const;
  const header = ['job', 'status', 'videos', ...counted, 'credits', 'created', 'sources'];
  const rows = jobs.map((job) => [
    String(job.id),
    describeStatus(job),
    String(job.counts.total),
    ...counted.map((status) => String(job.counts[status])),
    String(job.creditsSpent),
    job.createdAt.slice(0, 16).replace('T', ' '),
    describeSources(job.sources),
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

/** "waiting credits"; a finished job with failures says how many ("completed, 2 failed"). */
function describeStatus(job: JobView): string {
  const status = job.status.replace('_', ' ');
  return job.status === JOB_STATUS.completed && job.counts.failed > 0
    ? `${status}, ${job.counts.failed} failed`
    : status;
}

function describeSources(inputs: string[]): string {
  const shown = inputs.slice(0, 2).join(', ');
  return inputs.length > 2 ? `${shown} and ${inputs.length - 2} more` : shown;
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
  // A cancelled job is stopped for good: its command starts it again rather than continuing it.
  const next = job.status === JOB_STATUS.cancelled ? 'Start it again with' : 'Continue with';
  const lines = [`Job ${job.id} ${whyItStopped(job)}.`, `  ${next}: ${command}`];
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
  if (job.stop === null)
    return `finished with ${job.counts.failed} failed video(s) and ${job.sourcesFailed} list(s) not walked`;
  const status = job.status.replace('_', ' ');
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
