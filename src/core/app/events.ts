import type { EventName, EventPayload, JobView } from '../../shared/contract';
import type { Clock } from '../api';
import { Throttle, type Logger } from '../engine';
import { TypedEmitter } from '../engine/emitter';

type ContractEvents = { [N in EventName]: EventPayload<N> };

/** How often faces hear of a job (docs/product.md: at most ten a second per job) and of the credits. */
const JOB_INTERVAL_MS = 100;
/** Video changes are gathered for this long, then told as one count. */
const VIDEOS_BATCH_MS = 250;

export interface EventHubDeps {
  clock: Clock;
  logger: Logger;
  /** The job as faces see it now; undefined once it is gone. */
  jobView(jobId: number): JobView | undefined;
  credits(): EventPayload<'creditsChanged'>;
}

/**
 * The contract's events, as faces receive them: facts from the engine and from the database
 * watcher come in at any rate; jobChanged leaves at most ten times a second per job, always with
 * the job's latest state, and video changes leave in batches. A listener that throws is logged.
 */
export class EventHub {
  readonly #deps: EventHubDeps;
  readonly #emitter: TypedEmitter<ContractEvents>;
  readonly #jobThrottles = new Map<number, Throttle>();
  readonly #credits: Throttle;
  readonly #videoChanges = new Map<number, number>();
  #videoTimer: NodeJS.Timeout | undefined;

  constructor(deps: EventHubDeps) {
    this.#deps = deps;
    this.#emitter = new TypedEmitter((event, error) =>
      deps.logger.warn(`A listener of the ${event} event failed; Scriptorium goes on.`, error),
    );
    this.#credits = new Throttle(() => this.emit('creditsChanged', deps.credits()), {
      clock: deps.clock,
      intervalMs: JOB_INTERVAL_MS,
    });
  }

  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void {
    return this.#emitter.on(event, listener as (payload: ContractEvents[N]) => void);
  }

  emit<N extends EventName>(event: N, payload: EventPayload<N>): void {
    this.#emitter.emit(event, payload as ContractEvents[N]);
  }

  /** Something about the job changed: faces get its whole state soon (see the class comment). */
  jobTouched(jobId: number): void {
    // Building a job's view reads the database: not for nobody.
    if (!this.#emitter.hasListeners('jobChanged')) return;
    let throttle = this.#jobThrottles.get(jobId);
    if (throttle === undefined) {
      throttle = new Throttle(() => this.#emitJob(jobId), {
        clock: this.#deps.clock,
        intervalMs: JOB_INTERVAL_MS,
      });
      this.#jobThrottles.set(jobId, throttle);
    }
    throttle.poke();
  }

  jobRemoved(jobId: number): void {
    this.#jobThrottles.get(jobId)?.dispose();
    this.#jobThrottles.delete(jobId);
    this.emit('jobRemoved', { jobId });
  }

  videosTouched(jobId: number, changed = 1): void {
    if (!this.#emitter.hasListeners('videosChanged')) return;
    this.#videoChanges.set(jobId, (this.#videoChanges.get(jobId) ?? 0) + changed);
    this.#videoTimer ??= setTimeout(() => this.#flushVideos(), VIDEOS_BATCH_MS).unref();
  }

  creditsTouched(): void {
    if (this.#emitter.hasListeners('creditsChanged')) this.#credits.poke();
  }

  dispose(): void {
    for (const throttle of this.#jobThrottles.values()) throttle.dispose();
    this.#credits.dispose();
    clearTimeout(this.#videoTimer);
  }

  #emitJob(jobId: number): void {
    const view = this.#deps.jobView(jobId);
    if (view !== undefined) this.emit('jobChanged', view);
  }

  #flushVideos(): void {
    this.#videoTimer = undefined;
    const changes = [...this.#videoChanges];
    this.#videoChanges.clear();
    for (const [jobId, changed] of changes) this.emit('videosChanged', { jobId, changed });
  }
}
