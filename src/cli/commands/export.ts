import type { Command } from 'commander';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { argumentOrExit } from '../argument-error';
import { addJobOptions, parseJobRequest, type JobRequest, type RawJobOptions } from '../job-options';
import { plural } from '../plural';
import { runExport, writeReleasedVersion, type ExportSummary } from '../run-export';
import { addCitationOptions, parseCitation, type RawCitationOptions } from '../citation-options';
import type { CitationInput } from '../../shared/citation';

interface ExportFlags extends RawJobOptions, RawCitationOptions {
  out?: string;
  version?: string;
  baseUrl?: string;
  dataDir?: string;
  retryFailed: boolean;
  retryUnavailable: boolean;
}

export function registerExportCommand(program: Command): void {
  const command = addJobOptions(
    program
      .command('export')
      .description(
        'Fetch the transcripts of videos, playlists, channels or searches and write a ZIP corpus.',
      ),
  )
    .option('--out <file.zip>', 'where to write the ZIP (required)')
    .option('--retry-failed', 'send again the videos that failed in an earlier run', false)
    .option('--retry-unavailable', 'ask again for the videos the service had no transcript for', false)
    .option(
      '--version <n>',
      'write released version N of the job again, byte for byte as it was released (nothing is sent)',
    );
  addCitationOptions(command).action(async (sourceArgs: string[], flags: ExportFlags) => {
    const request = parseOrExit(sourceArgs, flags);
    const citation = citationOrExit(flags);
    if (!flags.out)
      throw new CliExit(
        ExitCode.badInput,
        'Missing --out FILE.zip: say where the ZIP should be written. Nothing was sent.',
      );
    const outPath = flags.out;
    const version = versionOrExit(flags);
    if (version !== undefined) {
      const written = await withApp(flags, (api) =>
        writeReleasedVersion(api, { request, outPath, version, stderr: process.stderr }),
      );
      process.stdout.write(`${written}\n`);
      return;
    }
    const summary = await withApp(flags, (api) =>
      runExport(api, {
        request,
        outPath,
        retryFailed: flags.retryFailed,
        retryUnavailable: flags.retryUnavailable,
        ...(citation !== undefined && { citation }),
        stderr: process.stderr,
      }),
    );
    process.stdout.write(`${describeSummary(summary)}\n`);
    const gaps = describeGaps(summary);
    if (gaps !== undefined)
      throw new CliExit(ExitCode.someFailed, `Exported ${summary.zipPath}, but ${gaps}`);
  });
}

/** The checked request, or exit 2 with what is wrong with the arguments. */
export function parseOrExit(sourceArgs: string[], flags: RawJobOptions): JobRequest {
  return argumentOrExit(() => parseJobRequest(sourceArgs, flags), ' Nothing was sent.');
}

/**
 * The released version asked for (a whole number from 1), or undefined; exit 2 for anything else, and
 * for options that would change the job or what the version says (a version is written as it was).
 */
function versionOrExit(flags: ExportFlags): number | undefined {
  if (flags.version === undefined) return undefined;
  const version = Number(flags.version);
  if (!/^\d+$/.test(flags.version.trim()) || !Number.isSafeInteger(version) || version < 1) {
    throw new CliExit(
      ExitCode.badInput,
      `--version ${flags.version}: give a version's number, 1 or more. Nothing was sent.`,
    );
  }
  const changing = [
    ...(flags.retryFailed ? ['--retry-failed'] : []),
    ...(flags.retryUnavailable ? ['--retry-unavailable'] : []),
    ...(parseCitation(flags) === undefined ? [] : ['the citation options']),
  ];
  if (changing.length > 0) {
    throw new CliExit(
      ExitCode.badInput,
      `--version ${version} writes that version as it was released: ${changing.join(' and ')} cannot go with it. Nothing was sent.`,
    );
  }
  return version;
}

/** The corpus's citation as given, checked; undefined when no citation option was given; else exit 2. */
function citationOrExit(flags: RawCitationOptions): CitationInput | undefined {
  return argumentOrExit(() => parseCitation(flags), ' Nothing was sent.');
}

/** Lists whose failure the last line explains; errors.csv has every one. */
const LISTS_EXPLAINED = 3;

/**
 * What the corpus lacks and how to get it, or undefined when it is whole: lists that could not be
 * walked (tried again by the next run), videos a forced stop cut off, and videos that failed, by
 * what happened to them (both sent again with --retry-failed).
 */
function describeGaps({
  job,
  failures,
  unwalked,
}: Pick<ExportSummary, 'job' | 'failures' | 'unwalked'>): string | undefined {
  const { interrupted } = job.counts;
  if (job.sourcesFailed === 0 && job.counts.failed === 0) return undefined;
  const parts: string[] = [];
  if (job.sourcesFailed > 0) {
    const why = unwalked
      .slice(0, LISTS_EXPLAINED)
      .map(({ input, error }) => `${input}: ${error}`)
      .join('; ');
    parts.push(
      `${plural(job.sourcesFailed, 'source')} could not be walked (${why}); running the same command again tries again from where it stopped`,
    );
  }
  if (interrupted > 0) {
    parts.push(
      `${plural(interrupted, 'video was', 'videos were')} cut off by a forced stop after being sent, and may have been charged`,
    );
  }
  for (const { videos, reason } of failures) parts.push(`${plural(videos, 'video')} failed: ${reason}`);
  const retry = job.counts.failed > 0 ? ' Run the same command with --retry-failed to send them again.' : '';
  return `${parts.join('; ')}. All are listed in errors.csv.${retry}`;
}

/** The lines a user reads when a ZIP was written. */
export function describeSummary(summary: ExportSummary): string {
  const { counts, creditsSpent, sourcesFailed } = summary.job;
  const { copied, written } = summary.files;
  return [
    `Wrote ${summary.zipPath}`,
    `  videos: ${counts.total}, transcripts: ${counts.ok}, unavailable: ${counts.unavailable}, failed: ${counts.failed}, skipped: ${counts.skipped}` +
      (sourcesFailed > 0 ? `, sources not walked: ${sourcesFailed}` : ''),
    `  credits spent by this job: ${creditsSpent}; time: ${summary.seconds.toFixed(1)} s`,
    ...summary.citationChanges.map((change) => `  ${change}`),
    ...(copied > 0
      ? [
          `  ${files(copied)} copied unchanged from the previous export, ${written.toLocaleString('en')} written`,
        ]
      : []),
  ].join('\n');
}

function files(count: number): string {
  return `${count.toLocaleString('en')} file${count === 1 ? '' : 's'}`;
}
