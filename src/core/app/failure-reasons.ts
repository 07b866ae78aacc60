import { isRetryable, MAX_ATTEMPTS, RETRIED_STATUSES } from '../api';

/** A job's failed videos that ended the same way: how many, and what happened, in plain words. */
export interface FailureReason {
  videos: number;
  reason: string;
}

const RETRIED = `${RETRIED_STATUSES.slice(0, -1).join(', ')} and ${RETRIED_STATUSES.at(-1)}`;

/**
 * What happened to the job's failed videos, by the last answer each had (store/items.ts
 * failedByStatus): whether Scriptorium tried again, and why not. A 500 is not retried (only the
 * statuses of docs/product.md's request policy are), so it never "failed after every retry".
 */
export function describeFailures(
  groups: ReadonlyArray<{ httpStatus: number | null; code: string | null; videos: number }>,
): FailureReason[] {
  return groups.map((group) => ({ videos: group.videos, reason: reasonOf(group.httpStatus, group.code) }));
}

function reasonOf(httpStatus: number | null, code: string | null): string {
  if (httpStatus === null)
    return 'no answer came (the request timed out or its connection was lost): not retried, since it may have been charged';
  const answered = `HTTP ${httpStatus}${code === null ? '' : ` ${code}`}`;
  if (httpStatus >= 200 && httpStatus < 300)
    return `the answer (${answered}) could not be read: not retried, since another attempt would be charged again`;
  if (isRetryable(httpStatus)) return `the service answered ${answered} to each of ${MAX_ATTEMPTS} attempts`;
  if (httpStatus === 422)
    return `the service refused a value Scriptorium sent (${answered}): not retried, a bug to report`;
  return `the service answered ${answered}: not retried (only ${RETRIED} are tried again)`;
}
