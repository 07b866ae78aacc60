import type { Command } from 'commander';
import { JOB_STATUS } from '../../shared/vocabulary';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { exitForUnfinishedSync } from '../outcome';
import { parseWholeNumber, ArgumentError } from '../job-options';

interface SyncFlags {
  baseUrl?: string;
  dataDir?: string;
}

/**
 * `scriptorium sync JOB_ID`: brings a finished job's channels and playlists up to date, buying only
 * what is new; the same `export` command then writes the whole corpus again.
 */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description("Bring a finished job's channels and playlists up to date, buying only what is new.")
    .argument('<job>', 'the job number (see `scriptorium jobs`)')
    .option('--base-url <url>', 'the service address (or TRANSCRIPT_API_BASE_URL)')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (jobArgument: string, flags: SyncFlags) => {
      const jobId = jobNumber(jobArgument);
      const synced = await withApp(flags, (api) => api.syncJob({ jobId }));
      const { newVideos, pages, credits, outcome } = synced;
      if (outcome.status !== JOB_STATUS.completed) {
        process.stdout.write(
          `Job ${jobId}: the sync found ${newVideos} new video(s), spent ${credits} credit(s), and stopped before it was done.\n`,
        );
        throw exitForUnfinishedSync(jobId, outcome, synced.job.budget);
      }
      const found =
        newVideos === 0
          ? `nothing new: it cost ${credits} credit(s), for the ${pages} list page(s) it had to read`
          : `${newVideos} new video(s), ${credits} credit(s) spent (${pages} list page(s) and the new transcripts)`;
      process.stdout.write(`Job ${jobId} brought up to date: ${found}.\n`);
      process.stdout.write('Run the same `scriptorium export` command again to write the whole corpus.\n');
    });
}

function jobNumber(text: string): number {
  try {
    return parseWholeNumber('job', text, 1);
  } catch (error) {
    if (error instanceof ArgumentError)
      throw new CliExit(ExitCode.badInput, `${error.message} Nothing was sent.`);
    throw error;
  }
}
