type Listener<T> = (payload: T) => void;

/**
 * A minimal event emitter whose event names and payloads are checked by the compiler. A listener
 * that throws is reported to `onListenerError` and never reaches the code that emitted (as
 * graphile-worker's safeEmit): a face's bug must not fail or wedge a run.
 */
export class TypedEmitter<Events extends object> {
  readonly #listeners: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};
  readonly #onListenerError: (event: string, error: unknown) => void;

  constructor(onListenerError: (event: string, error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    const listeners = this.#listeners[event] ?? new Set<Listener<Events[K]>>();
    this.#listeners[event] = listeners;
    listeners.add(listener);
    return () => this.off(event, listener);
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.#listeners[event]?.delete(listener);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const listeners = this.#listeners[event];
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      try {
        listener(payload);
      } catch (error) {
        this.#onListenerError(String(event), error);
      }
    }
  }

  hasListeners(event: keyof Events): boolean {
    return (this.#listeners[event]?.size ?? 0) > 0;
  }
}
