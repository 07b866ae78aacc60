import type { JobView } from '../../../shared/contract';
import { corpusFileName } from '../../../shared/job-name';

/**
 * The name the save dialog suggests for a job's ZIP, as a download is named: after the corpus title
 * (`title`, as typed in the Export dialog; else the one the job keeps), else the job's name.
 */
export function suggestedZipName(job: JobView, title: string = job.citation?.title ?? ''): string {
  return corpusFileName(job.id, title.trim() === '' ? job.title : title.trim());
}
