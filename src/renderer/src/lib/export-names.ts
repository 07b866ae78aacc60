import type { JobView } from '../../../shared/contract';

/** The name the save dialog suggests for a job's ZIP: "scriptorium-job-3-Lectures.zip". */
export function suggestedZipName(job: JobView): string {
  const title = job.title
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .slice(0, 60)
    .trim();
  return `scriptorium-job-${job.id}${title ? `-${title}` : ''}.zip`;
}
