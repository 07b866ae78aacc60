/**
 * The reference's following of transcript requests (docs/product.md, Request policy; "Jobs and the
 * CLI"): each video the job takes is asked for in each language of --lang in turn (a 404 moves on,
 * free; a transcript already stored for the same video, language and flags is used without a
 * request), the retryable statuses tried three times, and what the service answered decides its
 * status. The order of requests in flight together is the app's own, so the reference takes it from
 * the command's log, and checks that every request in it is one the product allows.
 */
import type { ModelItem, ModelJob, Status } from './job';
import type { Call } from './log';
import { ATTEMPTS, noteAnswer, RETRIED, type ReadContext } from './reads';

/** A stored transcript: surely, or perhaps (a command killed before it may have committed it). */
export interface Stored {
  state: 'yes' | 'maybe';
  language: string;
}

export interface FetchContext extends ReadContext {
  /** The data folder's transcripts, by cacheKey. */
  cache: Map<string, Stored>;
  /** Faults that turn a video's next 200 into a failure, in the order injected. */
  bodyFaults: Map<string, Array<'truncated' | 'malformed'>>;
  /** How a kill ended the command: answers held at a forced stop fail as cut; a SIGKILL records nothing. */
  kill: 'none' | 'drain' | 'force' | 'sigkill';
  /** The videos this command asked the service for. */
  requested: Set<string>;
}

/** The service's code for a status (the simulator's problems follow it). */
const CODES: Record<number, string> = {
  404: 'E_NOT_FOUND',
  408: 'E_TIMEOUT',
  429: 'E_RATE_LIMITED',
  500: 'E_INTERNAL',
  502: 'E_BAD_GATEWAY',
  503: 'E_UNAVAILABLE',
};

/** The cache's key of a transcript: video, language asked ('' for the original track), both flags. */
export function cacheKey(job: ModelJob, videoId: string, lang: string): string {
  const asked = lang === 'orig' ? '' : lang.toLowerCase();
  return `${videoId}|${asked}|${job.timestamps}|${job.metadata}`;
}

/** The `lang` a request carries for a code of --lang: none for the original track. */
function langParam(lang: string): string | undefined {
  return lang === 'orig' ? undefined : lang;
}

/**
 * Follows the requests for the job's videos that may be fetched now (status pending), in corpus
 * order, and sets each one's status from the answers. A video the log has no request for stays
 * pending, unless a stored transcript answers it; `completed` tells that the command ran to its end,
 * when every video taken must have an outcome.
 */
export function fetchPending(ctx: FetchContext, job: ModelJob): void {
  const calls = ctx.log.transcriptsByVideo();
  for (const item of job.items.values()) {
    if (!item.status.has('pending')) continue;
    const mine = [...(calls.get(item.videoId) ?? [])];
    const asked = mine.length > 0;
    if (asked) ctx.requested.add(item.videoId);
    const outcome = follow(ctx, job, item, mine);
    if (outcome === undefined) continue;
    // Asked for, it was pending: the answers alone say what it is now. A stored transcript answers
    // it without a request only if it was taken (it may have been skipped).
    if (asked) item.status = outcome;
    else {
      item.status.delete('pending');
      for (const status of outcome) item.status.add(status);
    }
  }
}

/**
 * What the answers to one video's requests give: its statuses, or undefined when it was not asked
 * for in this command and nothing stored answers it (it stays pending).
 */
function follow(ctx: FetchContext, job: ModelJob, item: ModelItem, calls: Call[]): Set<Status> | undefined {
  for (const [index, lang] of job.langs.entries()) {
    const key = cacheKey(job, item.videoId, lang);
    const stored = ctx.cache.get(key);
    const asked = calls.filter((call) => call.query['lang'] === langParam(lang));
    if (stored !== undefined && (stored.state === 'yes' || asked.length === 0)) {
      return succeeded(item, stored.language, lang);
    }
    const attempts = oneRequest(asked);
    if (attempts.length === 0) return undefined;
    ctx.log.follow(attempts);
    const last = lastAttempt(attempts);
    noteAnswer(ctx, last);
    if (!last.answered) return unanswered(ctx, item);
    // An error answered once the run was stopping is not recorded: the video waits for the next run.
    if (last.status !== 200 && last.seq > ctx.stopSeq) return undefined;
    const faulted = last.status === 200 ? takeBodyFault(ctx, item) : undefined;
    // A 200 whose body cannot be read, or is cut off: charged, and the video failed as unreadable.
    if (faulted !== undefined) return failed(item, 200, null);
    if (last.status === 200) {
      const language = ctx.catalog.describeTranscript(item.videoId, langParam(lang))?.language ?? '';
      ctx.cache.set(key, { state: ctx.kill === 'sigkill' ? 'maybe' : 'yes', language });
      const status = succeeded(item, language, lang);
      // A killed process may not have committed what it was answered: the next run may buy it again.
      return ctx.kill === 'sigkill' ? new Set([...status, 'pending']) : status;
    }
    if (last.status === 404) {
      if (index < job.langs.length - 1) continue;
      item.failure = { httpStatus: 404, code: CODES[404]! };
      return new Set(['unavailable']);
    }
    if ([401, 402, 403].includes(last.status)) return undefined;
    return failed(item, last.status, CODES[last.status] ?? null);
  }
  return undefined;
}

/** The attempts of one request: until an answer that is not retried, three at most. */
function oneRequest(calls: readonly Call[]): Call[] {
  const attempts: Call[] = [];
  for (const call of calls) {
    attempts.push(call);
    if (!RETRIED.has(call.status) || !call.answered || attempts.length === ATTEMPTS) break;
  }
  return attempts;
}

/** The attempt that decided: the last one. */
function lastAttempt(attempts: Call[]): Call {
  return attempts.at(-1)!;
}

function succeeded(item: ModelItem, language: string, lang: string): Set<Status> {
  item.language = language;
  item.requested = lang;
  item.failure = undefined;
  return new Set(['ok']);
}

function failed(item: ModelItem, httpStatus: number | null, code: string | null): Set<Status> {
  item.failure = { httpStatus, code };
  return new Set(['failed']);
}

/** A request whose answer the app never read: cut by a forced stop (failed), else left pending. */
function unanswered(ctx: FetchContext, item: ModelItem): Set<Status> | undefined {
  if (ctx.kill === 'force') return failed(item, null, 'interrupted');
  return undefined;
}

function takeBodyFault(ctx: FetchContext, item: ModelItem): 'truncated' | 'malformed' | undefined {
  return ctx.bodyFaults.get(item.videoId)?.shift();
}
