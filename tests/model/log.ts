/**
 * What the service saw of one command: its requests in the order they arrived, each with the status
 * it was answered, what the ledger charged for it, and whether the app can have read the answer (a
 * process killed while the simulator held the answers never did). The reference follows a command
 * through this log where the app's own order is not fixed (requests in flight together, a run
 * stopped midway), and the rules check that every request in it is one the product allows.
 */
import type { Charge, LoggedRequest } from '../../src/simulator';

export interface Call {
  seq: number;
  /** 'transcript', 'playlist/videos', 'channel/videos', 'channel/resolve', 'channel/latest', 'search'. */
  endpoint: string;
  query: Record<string, string>;
  status: number;
  /** The ledger's row when it was charged. */
  charge: Charge | undefined;
  /** Whether the app received the answer: not when a kill came while the simulator held it. */
  answered: boolean;
}

const API = '/api/v2/';
/** The requests that read lists, one after another within a run. */
const LIST_CALLS = new Set(['playlist/videos', 'channel/videos', 'search', 'channel/latest']);

export class CommandLog {
  readonly calls: Call[];
  /** The calls the reference has followed, by seq, each with the job whose run it followed them for. */
  readonly #followed = new Map<number, number | undefined>();
  /** The job whose run the reference follows now: what it follows is charged to that job. */
  owner: number | undefined;

  /**
   * `requests` and `charges` are what the simulator logged and charged during the command (in
   * order); answers to requests from `heldFrom` on (a request's seq) never reached the app.
   */
  constructor(requests: readonly LoggedRequest[], charges: readonly Charge[], heldFrom = Infinity) {
    const ledger = [...charges];
    this.calls = requests
      .filter((request) => request.path.startsWith(API))
      .map((request) => ({
        seq: request.seq,
        endpoint: request.path.slice(API.length),
        query: request.query,
        status: request.status,
        // The simulator charges a request just before it logs it: the two run in the same order.
        charge: request.charged ? ledger.shift() : undefined,
        answered: request.seq < heldFrom && request.status !== 0,
      }));
  }

  /**
   * The next call to `endpoint` (for the list or channel `about` names, when given) the reference has
   * not followed yet, taken; undefined when none is left.
   */
  take(endpoint: string, about?: string): Call | undefined {
    const call = this.peek(endpoint, about);
    if (call !== undefined) this.#followed.set(call.seq, this.owner);
    return call;
  }

  /** The next call to `endpoint` (about `about`) not followed yet, left in place. */
  peek(endpoint: string, about?: string): Call | undefined {
    return this.calls.find(
      (call) =>
        call.endpoint === endpoint &&
        !this.#followed.has(call.seq) &&
        (about === undefined || subjectOf(call) === about),
    );
  }

  /**
   * The next list call (a page of a playlist, a channel or a search, or channel/latest) in the order
   * they arrived, taken when it is `endpoint` about `about`, else undefined: a run reads its lists one
   * page after another, and the runs of one command (`sync --all`) one after another, so a call that
   * is not the one expected means the run stopped before it. A free call not expected is passed over.
   */
  takeList(endpoint: string, about: string): Call | undefined {
    for (const call of this.calls) {
      if (!LIST_CALLS.has(call.endpoint) || this.#followed.has(call.seq)) continue;
      if (call.endpoint === endpoint && subjectOf(call) === about) {
        this.#followed.set(call.seq, this.owner);
        return call;
      }
      if (call.endpoint !== 'channel/latest') return undefined;
    }
    return undefined;
  }

  /** Marks calls as followed. */
  follow(calls: readonly Call[]): void {
    for (const call of calls) this.#followed.set(call.seq, this.owner);
  }

  /** The transcript requests not followed yet, by video, each video's in order. */
  transcriptsByVideo(): Map<string, Call[]> {
    const byVideo = new Map<string, Call[]>();
    for (const call of this.unfollowed()) {
      if (call.endpoint !== 'transcript') continue;
      const videoId = videoIdOf(call);
      byVideo.set(videoId, [...(byVideo.get(videoId) ?? []), call]);
    }
    return byVideo;
  }

  /** Calls the reference did not follow: requests the product had no reason to send. */
  unfollowed(): Call[] {
    return this.calls.filter((call) => !this.#followed.has(call.seq));
  }

  /** What the ledger charged during the command. */
  get charged(): number {
    return this.calls.filter((call) => call.charge !== undefined).length;
  }

  /** What the ledger charged for the calls followed for each job's run. */
  chargedByOwner(): Map<number, number> {
    const charged = new Map<number, number>();
    for (const call of this.calls) {
      const owner = this.#followed.get(call.seq);
      if (call.charge === undefined || owner === undefined) continue;
      charged.set(owner, (charged.get(owner) ?? 0) + 1);
    }
    return charged;
  }
}

/**
 * What a list request is about: the playlist's ID, the channel's (as the request names it: the app
 * asks by UC id once resolved), the search's words. A continuation names its list inside the token,
 * which the simulator writes as base64url JSON ({list, id, offset}) before its signature.
 */
export function subjectOf(call: Call): string | undefined {
  const charged = call.charge?.playlist ?? call.charge?.channel;
  if (charged !== undefined) return charged;
  const named = call.query['playlist'] ?? call.query['channel'] ?? call.query['input'] ?? call.query['q'];
  if (named !== undefined) return named;
  const token = call.query['continuation'];
  if (token === undefined) return undefined;
  try {
    const cursor = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as {
      id?: string;
    };
    return cursor.id;
  } catch {
    return undefined;
  }
}

/** The video a transcript request asked for (the model always sends bare IDs). */
export function videoIdOf(call: Call): string {
  return call.query['video_url'] ?? '';
}
