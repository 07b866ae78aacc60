import type { JobDetail } from '../../../shared/contract';

type LeftOut = JobDetail['skippedByFilter'][number];

/** A reason's detail about the one video, as in "shorter than 600 s (312 s)". */
const VIDEO_DETAIL = / \([^()]*\)$/;

/**
 * What each filter left out, most first. A length or date filter gives each video its own reason
 * ("shorter than 600 s (312 s)"); those are counted together under the filter's words.
 */
export function leftOutByFilter(skippedByFilter: readonly LeftOut[]): LeftOut[] {
  const byReason = new Map<string, number>();
  for (const { reason, videos } of skippedByFilter) {
    const filter = reason.replace(VIDEO_DETAIL, '');
    byReason.set(filter, (byReason.get(filter) ?? 0) + videos);
  }
  return [...byReason]
    .map(([reason, videos]) => ({ reason, videos }))
    .sort((a, b) => b.videos - a.videos || a.reason.localeCompare(b.reason));
}
