import { useEffect, useState } from 'react';

/** The longest wait setTimeout takes (about 24.8 days); a later moment is waited for in steps. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The time now (ms since the epoch), read when the component mounts and again when the moment `at`
 * comes (null: none), so that what depends on it, such as "due now", changes on time.
 */
export function useNowAt(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null || !Number.isFinite(at) || now >= at) return;
    const timer = setTimeout(
      () => setNow(Date.now()),
      Math.min(Math.max(0, at - Date.now()), LONGEST_TIMEOUT_MS),
    );
    return () => clearTimeout(timer);
  }, [at, now]);
  return now;
}
