import type { Command } from 'commander';
import type { JobDetail } from '../../shared/contract';
import { withApp } from '../environment';
import { addJobOptions, type RawJobOptions } from '../job-options';
import { reportSources } from '../sources-report';
import { parseOrExit } from './export';
import { plural } from '../plural';

interface PreviewFlags extends RawJobOptions {
  baseUrl?: string;
  dataDir?: string;
}

/**
 * `scriptorium preview`: walks the lists of the job an `export` with the same sources and options
 * would run, buying only list pages, and says what its transcripts will cost. The export run
 * afterwards continues this job and buys none of those pages again.
 */
export function registerPreviewCommand(program: Command): void {
  addJobOptions(
    program
      .command('preview')
      .description(
        'Walk the lists of an export (buying only list pages) and say what its transcripts will cost.',
      ),
  ).action(async (sourceArgs: string[], flags: PreviewFlags) => {
    const request = parseOrExit(sourceArgs, flags);
    const preview = await withApp(flags, async (api) => {
      await reportSources(api, request.sources, process.stderr);
      return api.previewJob({ draft: { ...request.draft, sources: request.sources } });
    });
    const overlap = request.draft.filters?.publishedOverlap === true;
    process.stdout.write(
      describePreview(preview.detail, { uncertainDates: preview.uncertainDates, overlap }),
    );
  });
}

/**
 * What a preview found. `uncertainDates` counts the videos whose publication interval ("1 year ago":
 * any of 366 days) crosses an end of the date window: left out, or kept when `overlap` asks for it.
 */
export function describePreview(
  { job, lists, estimate, skippedByFilter }: JobDetail,
  dates: { uncertainDates: number; overlap: boolean } = { uncertainDates: 0, overlap: false },
): string {
  const pages = lists.reduce((sum, list) => sum + list.pages, 0);
  const lines = [
    `Job ${job.id}, “${job.title}”: ${plural(job.counts.total, 'video')} from ${plural(job.sources.length, 'source')}.`,
    `  list pages bought: ${pages} (credits spent by this job so far: ${job.creditsSpent})`,
    `  transcripts still to buy: at most ${plural(estimate.transcripts, 'credit')} (a video without captions costs nothing)`,
  ];
  for (const list of lists) {
    const listed =
      list.expectedVideos === null
        ? plural(list.videos, 'video')
        : `${list.videos.toLocaleString('en')} of ${plural(list.expectedVideos, 'video')}`;
    const state = list.error === null ? list.status : `${list.status}: ${list.error}`;
    lines.push(`  ${list.input}: ${listed} listed (${state})`);
  }
  for (const { reason, videos } of skippedByFilter)
    lines.push(`  left out by a filter: ${plural(videos, 'video')} (${reason})`);
  if (dates.uncertainDates > 0) {
    lines.push(
      `  dates known only roughly ("1 year ago"), perhaps outside the window: ${dates.uncertainDates} ` +
        (dates.overlap
          ? '(kept, as --published-overlap asks)'
          : '(left out; --published-overlap keeps them)'),
    );
  }
  if (!estimate.exact) lines.push('  Some lists are not fully walked yet: run preview again to continue.');
  lines.push('Run `scriptorium export` with the same sources and options to buy the transcripts.');
  return `${lines.join('\n')}\n`;
}
