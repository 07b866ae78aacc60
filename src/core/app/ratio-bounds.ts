/**
 * The bounds of a ratio of sums when some parts may or may not count (docs/product.md, "Trends"):
 * a period's share is the matching videos (or the matching captions' seconds) of the videos
 * published in it, over all of theirs, and a video whose date is an interval that overlaps the
 * period without lying inside it may be in it or not. The lowest the share can be is not the lowest
 * count over the highest total, nor the highest the reverse: each uncertain video pulls the ratio
 * towards its own, so the lowest counts in exactly those that pull it down, and the highest those
 * that pull it up.
 */

/** A sum's part: what it adds to the ratio's numerator and to its denominator (num <= den). */
export interface RatioPart {
  num: number;
  den: number;
}

/**
 * The least and the most `certain` plus any choice of the `uncertain` parts can be as a ratio,
 * counting only the choices whose denominator is not 0 (a period no video can be in has no share);
 * null when no choice has one. Greedy, which is exact for a ratio of sums: sorted by their own
 * ratio, the parts that raise it most are taken while each still raises it (and likewise down).
 */
export function ratioBounds(
  certain: RatioPart,
  uncertain: readonly RatioPart[],
): { low: number; high: number } | null {
  return ratioBoundsOfSorted(certain, [...uncertain].sort(byRatio));
}

/** Parts in the order of their ratio, lowest first. */
export function byRatio(a: RatioPart, b: RatioPart): number {
  return a.num * b.den - b.num * a.den;
}

/** ratioBounds of parts already in the order of their ratio, lowest first (byRatio). */
export function ratioBoundsOfSorted(
  certain: RatioPart,
  ascending: readonly RatioPart[],
): { low: number; high: number } | null {
  const parts = ascending.filter((part) => part.den > 0);
  if (certain.den === 0 && parts.length === 0) return null;
  return { low: extreme(certain, parts, -1), high: extreme(certain, parts, 1) };
}

/**
 * Takes the parts while each moves the ratio in `direction` (1 up: from the highest ratio down; -1
 * down: from the lowest up).
 */
function extreme(certain: RatioPart, ascending: readonly RatioPart[], direction: 1 | -1): number {
  let { num, den } = certain;
  for (let i = 0; i < ascending.length; i++) {
    const part = ascending[direction === 1 ? ascending.length - 1 - i : i];
    if (part === undefined) break;
    // part.num / part.den beyond num / den in the direction, without dividing.
    const moves = den === 0 || direction * (part.num * den - num * part.den) > 0;
    if (!moves) break;
    num += part.num;
    den += part.den;
  }
  return num / den;
}
