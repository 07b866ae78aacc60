/**
 * The fault step: what the simulator is told to answer (docs/service.md, the simulator's faults),
 * aimed at a transcript of a video of the model's lists not stored yet (or the one named), at the next
 * page of a kind of list, or at the next request whatever it is.
 */
import { kindOf, LISTS, VIDEOS } from './catalog';
import type { Step } from './steps';
import type { ModelWorld } from './world';

/** A Retry-After that asks for no wait: 0 seconds, or an HTTP date already past. */
const NO_WAIT = { seconds: '0', date: new Date(Date.UTC(2020, 0, 1)).toUTCString() } as const;

export function faultStep(world: ModelWorld, step: Extract<Step, { op: 'fault' }>): void {
  const { fault } = step;
  const admin = world.sim.admin;
  const target = (): string => {
    if (step.video !== undefined) return step.video;
    const candidates = faultTargets(world);
    return candidates[step.pick % candidates.length]!;
  };
  switch (fault.kind) {
    case 'status':
      admin.addFault({
        match: { endpoint: 'transcript', videoId: target() },
        kind: 'status',
        status: fault.status,
        times: 1,
      });
      return;
    case 'retryable':
      admin.addFault({
        match: { endpoint: 'transcript', videoId: target() },
        kind: 'status',
        status: fault.status,
        times: fault.times,
        retryAfter: NO_WAIT[fault.retryAfter],
      });
      return;
    case 'body': {
      const videoId = target();
      admin.addFault({ match: { endpoint: 'transcript', videoId }, kind: fault.body, times: 1 });
      world.model.bodyFaults.set(videoId, [...(world.model.bodyFaults.get(videoId) ?? []), fault.body]);
      return;
    }
    case 'list':
      admin.addFault({ match: { endpoint: fault.endpoint }, kind: 'status', status: fault.status, times: 1 });
      return;
    case 'key':
      admin.addFault({ kind: 'status', status: fault.status, times: 1 });
      return;
    case 'storm':
      admin.addFault({ match: { endpoint: 'transcript' }, kind: 'status', status: 503, times: fault.count });
      return;
  }
}

/** Videos a transcript fault can be aimed at: those of the model's lists and sources, not stored yet. */
function faultTargets(world: ModelWorld): string[] {
  const admin = world.sim.admin;
  const listed = LISTS.flatMap((list) =>
    kindOf(list) === 'channel'
      ? admin.describeChannel(list).videoIds().slice(0, 30)
      : admin.describePlaylist(list).videoIds().slice(0, 30),
  );
  const stored = new Set([...world.model.cache.keys()].map((key) => key.split('|')[0]));
  const fresh = [...new Set([...listed, ...VIDEOS])].filter((videoId) => !stored.has(videoId));
  return fresh.length > 0 ? fresh : [...VIDEOS];
}
