import type { VideoRow } from '../../../../shared/contract';
import { ITEM_STATUS } from '../../../../shared/vocabulary';
import { capitalize, plural } from '../../lib/format';

/** Why a video is not fetched (or what its fetch is waiting for), in a few words; '' when nothing to say. */
export function videoReason(row: VideoRow): string {
  switch (row.status) {
    case ITEM_STATUS.failed: {
      const message = row.message ?? 'Failed';
      // The service's words name the status already ("The service answered 500 …"): said once.
      const named = row.httpStatus === null || new RegExp(`\\b${row.httpStatus}\\b`).test(message);
      return named ? message : `${message} (HTTP ${row.httpStatus})`;
    }
    case ITEM_STATUS.unavailable:
      return row.message ?? 'No transcript in the languages asked for';
    case ITEM_STATUS.skipped:
      // A filter's words, such as "not at positions 1-10", as the start of a sentence.
      return row.message === null ? 'Left out by the job’s options' : capitalize(row.message);
    case ITEM_STATUS.pending:
    case ITEM_STATUS.fetching:
      return row.attempts > 0 ? `Tried ${plural(row.attempts, 'time')}; will try again` : '';
    case ITEM_STATUS.ok:
      return '';
  }
}
