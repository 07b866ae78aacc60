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
