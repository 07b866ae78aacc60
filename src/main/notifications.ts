import type { EventPayload, JobView } from '../shared/contract';
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
 * whose states are not news. A finished job that runs again straight away is being synced: its
 * return to finished is no news either (notifyNewVideos tells what the sync found, if anything).
 */
export function notifyJobOutcomes(
  known: JobView[],
  events: JobEvents,
  notify: (notice: JobNotice) => void,
): () => void {
  const statuses = new Map(known.map((job) => [job.id, job.status]));
  const syncing = new Set<number>();
  const stopChanges = events.onJobChanged((job) => {
    const before = statuses.get(job.id);
    statuses.set(job.id, job.status);
    if (before === job.status) return;
    if (before === JOB_STATUS.completed && job.status === JOB_STATUS.running) syncing.add(job.id);
    const synced = job.status !== JOB_STATUS.running && syncing.delete(job.id);
    if (synced && job.status === JOB_STATUS.completed) return;
    const notice = outcomeNotice(job);
    if (notice !== undefined) notify(notice);
  });
  const stopRemovals = events.onJobRemoved((jobId) => {
    statuses.delete(jobId);
    syncing.delete(jobId);
  });
  return () => {
    stopChanges();
    stopRemovals();
  };
}

/**
 * Tells the user, through `notify`, what each sync run here found: "3 new videos in <job>". A sync
 * that found nothing new is silent.
 */
export function notifyNewVideos(
  onJobSynced: (listener: (sync: EventPayload<'jobSynced'>) => void) => () => void,
  notify: (notice: JobNotice) => void,
): () => void {
  return onJobSynced((sync) => {
    const notice = newVideosNotice(sync);
    if (notice !== undefined) notify(notice);
  });
}

/** The notice for a sync that found new videos; undefined for one that found none. */
export function newVideosNotice(sync: EventPayload<'jobSynced'>): JobNotice | undefined {
  if (sync.newVideos === 0) return undefined;
  const videos = `${sync.newVideos} new ${sync.newVideos === 1 ? 'video' : 'videos'}`;
  const body = sync.completed
    ? `Brought up to date for ${sync.credits} ${sync.credits === 1 ? 'credit' : 'credits'}.`
    : `The sync stopped before its end: ${clause(sync.stopMessage) ?? 'open Scriptorium to see why'}.`;
  return { jobId: sync.jobId, title: `${videos} in ${sync.title}`, body };
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
        `${job.title}: ${fetched}${failed > 0 ? `, ${failed} failed` : ''}. Export it from Jobs.`,
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

/**
 * Tells the user, through `notify`, when a newer release is found: once a version, as the app finds
 * it by itself or when asked (Settings, Updates, says what to do next).
 */
export function notifyNewRelease(
  onUpdateChanged: (listener: (status: EventPayload<'updateChanged'>) => void) => () => void,
  notify: (notice: Pick<JobNotice, 'title' | 'body'>) => void,
): () => void {
  const told = new Set<string>();
  return onUpdateChanged(({ state, current }) => {
    if (state.phase !== 'available' || told.has(state.version)) return;
    told.add(state.version);
    notify({
      title: `Scriptorium ${state.version} is available`,
      body:
        state.offer === 'install'
          ? `You have ${current}. Settings, Updates downloads it and restarts into it when you choose.`
          : `You have ${current}. Settings, Updates says where the new package is, with its checksum.`,
    });
  });
}
