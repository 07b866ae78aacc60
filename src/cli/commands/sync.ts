import type { Command } from 'commander';
import { JOB_STATUS } from '../../shared/vocabulary';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { invocation } from '../invocation';
import { jobNumber } from '../job-number';
import { exitForUnfinishedSync } from '../outcome';
import { syncAll } from '../sync-all';
import { plural } from '../plural';

interface SyncFlags {
  baseUrl?: string;
  dataDir?: string;
  all: boolean;
  any: boolean;
  dailyLimit?: string;
}

/**
 * `scriptorium sync JOB_ID`: brings a finished job's channels and playlists up to date, buying only
 * what is new; the same `export` command then writes the whole corpus again. `sync --all` does it for
 * every job marked Keep current (sync-all.ts).
 */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description("Bring a finished job's channels and playlists up to date, buying only what is new.")
    .argument('[job]', 'the job number (see `scriptorium jobs`)')
    .option('--all', 'sync every job marked Keep current (`scriptorium keep`), one after another', false)
    .option('--any', 'with --all: every finished job with a playlist or a channel, marked or not', false)
    .option(
      '--daily-limit <credits>',
      'with --all: the most all automatic syncs may spend together today (since midnight)',
    )
    .option('--base-url <url>', 'the service address (or TRANSCRIPT_API_BASE_URL)')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (jobArgument: string | undefined, flags: SyncFlags) => {
      if (flags.all) {
        if (jobArgument !== undefined)
          throw new CliExit(ExitCode.badInput, 'Give a job number or --all, not both. Nothing was sent.');
        await syncAll(flags);
        return;
      }
      if (flags.any || flags.dailyLimit !== undefined)
        throw new CliExit(ExitCode.badInput, '--any and --daily-limit go with --all. Nothing was sent.');
      if (jobArgument === undefined)
        throw new CliExit(
          ExitCode.badInput,
          'Give the job to sync (`scriptorium sync 3`), or --all for every job kept current. Nothing was sent.',
        );
      await syncJob(jobNumber(jobArgument), flags);
    });
}

async function syncJob(jobId: number, flags: SyncFlags): Promise<void> {
  const synced = await withApp(flags, (api) => api.syncJob({ jobId }));
  const { newVideos, pages, credits, outcome } = synced;
  if (outcome.status !== JOB_STATUS.completed) {
    process.stdout.write(
      `Job ${jobId}: the sync found ${plural(newVideos, 'new video')}, spent ${plural(credits, 'credit')}, and stopped before it was done.\n`,
    );
    throw exitForUnfinishedSync(jobId, outcome, synced.job.budget);
  }
  const found =
    newVideos === 0
      ? `nothing new: it cost ${plural(credits, 'credit')}, for the ${plural(pages, 'list page')} it had to read`
      : `${plural(newVideos, 'new video')}, ${plural(credits, 'credit')} spent (${plural(pages, 'list page')} and the new transcripts)`;
  process.stdout.write(`Job ${jobId} brought up to date: ${found}.\n`);
  // Nothing was added: there is nothing new to write.
  if (newVideos > 0)
    process.stdout.write(
      `Run the same \`${invocation()} export\` command again to write the whole corpus.\n`,
    );
}
