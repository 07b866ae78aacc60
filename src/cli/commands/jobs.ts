import type { Command } from 'commander';
import { openApp } from '../../core/app';
import type { JobSummary } from '../../core/engine';
import { resolveDataDir } from '../environment';

export function registerJobsCommand(program: Command): void {
  program
    .command('jobs')
    .description('List jobs with their status, counts and credits.')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action((flags: { dataDir?: string }) => {
      const app = openApp({ dataDir: resolveDataDir(flags.dataDir) });
      try {
        const jobs = app.listJobs();
        const credits = app.creditStatus();
        process.stdout.write(formatJobsTable(jobs));
        process.stdout.write(`Credits spent: ${credits.today} today, ${credits.total} in total.\n`);
        if (credits.last402) {
          process.stdout.write(
            `Last refusal for credits: ${credits.last402.meaning} (${credits.last402.code}) at ${credits.last402.at}.\n`,
          );
        }
      } finally {
        app.close();
      }
    });
}

/** A plain table: one row per job, newest first. */
export function formatJobsTable(jobs: JobSummary[]): string {
  if (jobs.length === 0)
    return 'No jobs yet. Start one with `scriptorium export <source>... --out FILE.zip`.\n';
  const header = [
    'job',
    'status',
    'videos',
    'ok',
    'unavailable',
    'failed',
    'pending',
    'credits',
    'created',
    'sources',
  ];
  const rows = jobs.map((job) => [
    String(job.id),
    job.status.replace('_', ' '),
    String(job.counts.total),
    String(job.counts.ok),
    String(job.counts.unavailable),
    String(job.counts.failed),
    String(job.counts.pending),
    String(job.creditsSpent),
    job.createdAt.slice(0, 16).replace('T', ' '),
    describeSources(job),
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

function describeSources(job: JobSummary): string {
  const inputs = job.sources.map((source) => source.input);
  const shown = inputs.slice(0, 2).join(', ');
  return inputs.length > 2 ? `${shown} and ${inputs.length - 2} more` : shown;
}
