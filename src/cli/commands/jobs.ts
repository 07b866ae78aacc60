import type { Command } from 'commander';
import type { CreditView, JobDetail, JobView } from '../../shared/contract';
import { DEFAULT_LANGUAGES, ITEM_STATUS, JOB_STATUS, STOP_REASON } from '../../shared/vocabulary';
import { withApp } from '../environment';

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
    job.status.replace('_', ' '),
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

/** "Job 2 stopped: <why>. Continue with: scriptorium export ... --out FILE.zip" */
function describeStop({ job, options }: JobDetail): string {
  const why =
    job.status === JOB_STATUS.draft
      ? 'was created but not started'
      : job.stop === null
        ? `finished with ${job.counts.failed} failed video(s) and ${job.sourcesFailed} list(s) not walked`
        : `${job.status.replace('_', ' ')}: ${job.stop.message ?? job.stop.reason}`;
  const flags = [
    options.languages.join(',') === DEFAULT_LANGUAGES ? '' : `--lang ${options.languages.join(',')}`,
    options.includeTimestamp ? '' : '--no-timestamps',
    options.sendMetadata ? '' : '--no-metadata',
    options.maxVideos === null ? '' : `--max-videos ${options.maxVideos}`,
    job.stop?.reason === STOP_REASON.budget ? '--budget <more credits>' : '',
    job.counts.failed > 0 ? '--retry-failed' : '',
  ].filter((flag) => flag !== '');
  const command = ['scriptorium export', ...job.sources.map(shellQuote), ...flags, '--out FILE.zip'].join(
    ' ',
  );
  return `Job ${job.id} ${why}.\n  Continue with: ${command}\n`;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9@._:/?=&%+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
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
