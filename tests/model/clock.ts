/**
 * The model's clock: real time moved on by an offset that only grows, shared by this process (the
 * CLI run in process and the simulator) and the child processes it starts (clock-preload.mjs), so that
 * a listing worded "3 days ago" by the simulator is read at the same moment by the app. A step of the
 * model moves it (hours, days, a year) between commands, never during one, so that worded dates
 * cross their boundaries between two reads; timers keep real time.
 */
import { fileURLToPath } from 'node:url';

const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);
let offset = 0;
let installed = false;

/** The environment variable a child process reads its offset from (clock-preload.mjs). */
export const CLOCK_OFFSET_VARIABLE = 'SCRIPTORIUM_MODEL_CLOCK_OFFSET_MS';
/** The module a child process imports first to run on the model's clock. */
export const CLOCK_PRELOAD = fileURLToPath(new URL('./clock-preload.mjs', import.meta.url));

/** Makes Date.now and `new Date()` of this process follow the model's clock (once). */
export function installModelClock(): void {
  if (installed) return;
  installed = true;
  RealDate.now = () => realNow() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget) as object,
    apply: (target) => new target(target.now()).toString(),
  });
}

export const modelClock = {
  /** Epoch ms on the model's clock. */
  now: (): number => realNow() + offset,
  /** Moves the clock on by `ms` (never back). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`the model's clock only moves on (${ms} ms asked)`);
    offset += ms;
  },
  /** Back to real time: a new sequence starts on a new world. */
  reset(): void {
    offset = 0;
  },
  /** The environment a child process needs to share the clock. */
  env(): Record<string, string> {
    return { [CLOCK_OFFSET_VARIABLE]: String(offset) };
  },
};
