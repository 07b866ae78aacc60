/** How many differences of one kind are listed; the rest are counted. */
export const LISTED_PER_KIND = 10;

/**
 * The differences `verify` finds, each a line `<kind>: <detail>`. The first LISTED_PER_KIND of each
 * kind are kept and the rest only counted, so that a file naming millions of problems costs neither
 * memory nor a flooded terminal.
 */
export class Differences {
  readonly #listed: Array<{ kind: string; detail: string }> = [];
  /** Differences found, by kind, listed or not. */
  readonly #found = new Map<string, number>();
  #count = 0;

  /** How many differences were found, listed or not. */
  get count(): number {
    return this.#count;
  }

  /** How many differences of `kind` were found. */
  found(kind: string): number {
    return this.#found.get(kind) ?? 0;
  }

  /** Whether a difference of `kind` would still be listed, so that its detail is worth working out. */
  listing(kind: string): boolean {
    return this.found(kind) < LISTED_PER_KIND;
  }

  /** Counts a difference, and keeps its detail while its kind is still listed. */
  add(kind: string, detail: string | (() => string)): void {
    if (this.listing(kind))
      this.#listed.push({ kind, detail: typeof detail === 'string' ? detail : detail() });
    this.#found.set(kind, this.found(kind) + 1);
    this.#count += 1;
  }

  /** Adds every difference `other` found, as if each had been added here. */
  merge(other: Differences): void {
    for (const { kind, detail } of other.#listed) this.add(kind, detail);
    for (const [kind, found] of other.#found) {
      const unlisted = found - other.#listed.filter((listed) => listed.kind === kind).length;
      this.#found.set(kind, this.found(kind) + unlisted);
      this.#count += unlisted;
    }
  }

  /** The lines kept, in the order found, then for each kind with more a line saying how many more. */
  lines(): string[] {
    const more = [...this.#found].flatMap(([kind, found]) =>
      found > LISTED_PER_KIND
        ? [`${kind}: … and ${(found - LISTED_PER_KIND).toLocaleString('en-US')} more`]
        : [],
    );
    return [...this.#listed.map(({ kind, detail }) => `${kind}: ${detail}`), ...more];
  }
}
