/** One type holding every member of a union of object types, each with its own type. */
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (
  part: infer Joined,
) => void
  ? Joined
  : never;

/** The object `combineDomains` makes of its parts: every part's names, each with its own type. */
export type Combined<Parts extends readonly object[]> = UnionToIntersection<Parts[number]>;

/**
 * Joins the parts of one object that each domain gives (the contract's commands, the app's
 * handlers), after Actual's loot-core, whose apps are combined the same way. A name belongs to one
 * domain: one that two parts both give is a mistake, refused at once rather than one part silently
 * replacing the other. The caller checks the whole with `satisfies`, so a name no part gives is a
 * compile error.
 */
export function combineDomains<const Parts extends readonly object[]>(
  what: string,
  ...parts: Parts
): Combined<Parts> {
  const combined: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [name, value] of Object.entries(part)) {
      if (Object.hasOwn(combined, name))
        throw new Error(`${what}: two domains both give "${name}"; each name belongs to one domain.`);
      combined[name] = value;
    }
  }
  return combined as Combined<Parts>;
}
