// The model's clock in a child process (tests/model/processes.ts starts bin/scriptorium with
// `--import` of this file): the real time moved on by SCRIPTORIUM_MODEL_CLOCK_OFFSET_MS, the same
// offset the test's own process and its simulator run at, so that the app reads a listing's words
// ("3 days ago") at the time the simulator wrote them. Only Date.now and `new Date()` move; timers
// keep real time.
const offset = Number(process.env.SCRIPTORIUM_MODEL_CLOCK_OFFSET_MS ?? 0);
if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  RealDate.now = () => realNow() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget),
    apply: (target) => new target(target.now()).toString(),
  });
}
