/**
 * A bounded cache of pages of rows, least recently stored first (a Map keeps insertion order).
 * Immutable: each change returns a new Map, so a store can hand it to React as it is.
 */
export type Pages<Row> = ReadonlyMap<number, readonly Row[]>;

/** Adds (or refreshes) one page, then forgets the oldest pages beyond `maxPages`, never those in `keep`. */
export function withPage<Row>(
  pages: Pages<Row>,
  page: number,
  rows: readonly Row[],
  maxPages: number,
  keep: ReadonlySet<number>,
): Pages<Row> {
  const next = new Map(pages);
  next.delete(page);
  next.set(page, rows);
  for (const oldest of next.keys()) {
    if (next.size <= maxPages) break;
    if (oldest !== page && !keep.has(oldest)) next.delete(oldest);
  }
  return next;
}

/** The pages holding rows `first` to `last` (inclusive, 0-based), for pages of `pageSize` rows. */
export function pagesCovering(first: number, last: number, pageSize: number): number[] {
  if (last < first || last < 0) return [];
  const from = Math.floor(Math.max(0, first) / pageSize);
  const to = Math.floor(last / pageSize);
  return Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
}

/** The row at `index`, if its page is held. */
export function rowAt<Row>(pages: Pages<Row>, index: number, pageSize: number): Row | undefined {
  return pages.get(Math.floor(index / pageSize))?.[index % pageSize];
}
