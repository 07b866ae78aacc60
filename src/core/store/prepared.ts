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
 * preparedFor for the query modules (store/queries/), which only read: each statement is checked as
 * it is prepared (SQLite's own verdict, better-sqlite3's `readonly`), so that a statement that would
 * write fails the first use of its module, in every test that reads through it.
 */
export function readOnlyPreparedFor<T extends Record<string, { readonly readonly: boolean }>>(
  build: (db: Database) => T,
): (db: Database) => T {
  return preparedFor((db) => {
    const statements = build(db);
    for (const [name, statement] of Object.entries(statements)) {
      if (!statement.readonly)
        throw new Error(
          `The query "${name}" would write to the database: only the engine writes (DESIGN.md).`,
        );
    }
    return statements;
  });
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
