import type { Database } from './database';

/**
 * Builds a table module's prepared statements once per connection and reuses them:
 * `const statements = preparedFor((db) => ({ byId: db.prepare('…') }))`.
 */
export function preparedFor<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let statements = cache.get(db);
    if (statements === undefined) {
      statements = build(db);
      cache.set(db, statements);
    }
    return statements;
  };
}

/**
 * Each value of a vocabulary object (src/shared/vocabulary.ts) as an SQL string literal, for the
 * statements that name a status: `const JOB = sqlLiterals(JOB_STATUS)`, then `status = ${JOB.queued}`.
 * The values are our own words, never input.
 */
export function sqlLiterals<const T extends Record<string, string>>(
  values: T,
): { readonly [K in keyof T]: string } {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, `'${value.replaceAll("'", "''")}'`]),
  ) as { readonly [K in keyof T]: string };
}
