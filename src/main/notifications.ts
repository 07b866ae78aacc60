import type { JobView } from '../shared/contract';
import { JOB_STATUS } from '../shared/vocabulary';

/** What a system notification says about a job. */
export interface JobNotice {
  jobId: number;
  title: string;
  body: string;
}

export interface JobEvents {
  onJobChanged(listener: (job: JobView) => void): () => void;
  onJobRemoved(listener: (jobId: number) => void): () => void;
}

/**
 * Tells the user, through `notify`, when a job finishes, fails or waits for credits: each time a job
 * moves into one of those states, never again while it stays there. `known` are the jobs at start,
 * whose states are not news.
 */
export function notifyJobOutcomes(
  known: JobView[],
  events: JobEvents,
  notify: (notice: JobNotice) => void,
): () => void {
  const statuses = new Map(known.map((job) => [job.id, job.status]));
  const stopChanges = events.onJobChanged((job) => {
    const before = statuses.get(job.id);
    statuses.set(job.id, job.status);
    if (before === job.status) return;
    const notice = outcomeNotice(job);
    if (notice !== undefined) notify(notice);
  });
  const stopRemovals = events.onJobRemoved((jobId) => statuses.delete(jobId));
  return () => {
    stopChanges();
    stopRemovals();
  };
}

/** The notice for a job that has just reached an outcome worth telling; undefined otherwise. */
export function outcomeNotice(job: JobView): JobNotice | undefined {
  const notice = (title: string, body: string): JobNotice => ({ jobId: job.id, title, body });
  switch (job.status) {
    case JOB_STATUS.completed: {
      const { ok, failed } = job.counts;
      const fetched = `${ok} ${ok === 1 ? 'transcript' : 'transcripts'} fetched`;
      return notice(
        'Job finished',
        `${job.title}: ${fetched}${failed > 0 ? `, ${failed} failed after every retry` : ''}. Export it from Jobs.`,
      );
    }
    case JOB_STATUS.failed:
      return notice(
        'Job failed',
        `${job.title}: ${clause(job.stop?.message) ?? 'open Scriptorium to see why'}.`,
      );
    case JOB_STATUS.waiting_credits:
      return notice(
        'Job waiting for credits',
        `${job.title}: ${clause(job.stop?.message) ?? 'add credits to your account'}, then press Resume.`,
      );
    default:
      return undefined;
  }
}

/** A stop message to go inside a sentence of ours: without its final period; undefined when empty. */
function clause(message: string | null | undefined): string | undefined {
  const text = message?.trim().replace(/\.+$/, '');
  return text ? text : undefined;
}
