import type { Command } from 'commander';
import { resolveConnection, resolveDataDir } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { ArgumentError, parseExportRequest, type RawExportOptions } from '../export-options';
import { runExport, type ExportSummary } from '../run-export';

interface ExportFlags extends RawExportOptions {
  baseUrl?: string;
  dataDir?: string;
  retryFailed: boolean;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('Fetch the transcripts of videos, playlists, channels or searches and write a ZIP corpus.')
    .argument(
      '[sources...]',
      'video or playlist IDs or URLs, channel @handles, URLs or UC ids, search:<query>',
    )
    .option('--out <file.zip>', 'where to write the ZIP (required)')
    .option('--from <file>', 'read sources from a file, one per line (blank lines and # comments skipped)')
    .option(
      '--lang <codes>',
      'language preference, tried in order, e.g. es,en,orig (orig: the original track)',
    )
    .option('--no-timestamps', 'do not ask for segment times (only txt and json can then be written)')
    .option('--no-metadata', 'do not ask for video metadata')
    .option('--formats <list>', 'formats to write: txt,json,srt,vtt (default all four)')
    .option('--concurrency <n>', 'transcript requests in flight at once (default 4)')
    .option('--max-videos <n>', 'at most this many videos from each playlist, channel or search')
    .option('--budget <n>', 'credits this job may spend in total')
    .option('--retry-failed', 'try again the videos that failed after every retry in an earlier run', false)
    .option('--base-url <url>', 'the service address (or TRANSCRIPT_API_BASE_URL)')
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (sourceArgs: string[], flags: ExportFlags) => {
      const summary = await exportFromFlags(sourceArgs, flags);
      process.stdout.write(`${describeSummary(summary)}\n`);
      const failed = summary.job.counts.failed;
      if (failed > 0) {
        throw new CliExit(
          ExitCode.someFailed,
          `Exported ${summary.zipPath}, but ${failed} video(s) failed after every retry (listed in errors.csv). Run the same command with --retry-failed later to try them again.`,
        );
      }
    });
}

async function exportFromFlags(sourceArgs: string[], flags: ExportFlags): Promise<ExportSummary> {
  let request;
  try {
    request = parseExportRequest(sourceArgs, flags);
  } catch (error) {
    if (error instanceof ArgumentError)
      throw new CliExit(ExitCode.badInput, `${error.message} Nothing was sent.`);
    throw error;
  }
  if (request.rejections.length > 0) {
    process.stderr.write(`Skipping ${request.skipped.length} invalid source(s):\n`);
    for (const line of request.rejections) process.stderr.write(`  ${line}\n`);
  }
  if (request.sources.length === 0) {
    throw new CliExit(
      ExitCode.badInput,
      'No valid source remains, so nothing was sent. Fix the sources listed above and run the command again.',
    );
  }
  return runExport({
    request,
    connection: resolveConnection(flags.baseUrl),
    dataDir: resolveDataDir(flags.dataDir),
    retryFailed: flags.retryFailed,
    stderr: process.stderr,
  });
}

/** The lines a user reads when a ZIP was written. */
export function describeSummary(summary: ExportSummary): string {
  const { counts, creditsSpent } = summary.job;
  return [
    `Wrote ${summary.zipPath}`,
    `  videos: ${counts.total}, transcripts: ${counts.ok}, unavailable: ${counts.unavailable}, failed: ${counts.failed}`,
    `  credits spent by this job: ${creditsSpent}; time: ${summary.seconds.toFixed(1)} s`,
  ].join('\n');
}
