import type Database from 'better-sqlite3';

/**
 * Makes `db.prepare` return a cached statement for SQL it has seen before. The
 * repositories build their SQL per call; compiling it again on every call cost more
 * than running it on the write path. Statements are only run synchronously, never
 * iterated across awaits, so sharing one per SQL text is safe. Bounded: the oldest
 * entry goes when the cache is full (filters produce a few hundred distinct texts).
 */
export function cachePreparedStatements(db: Database.Database, max = 1_000): Database.Database {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (statement) return statement;
    statement = prepare(sql);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(sql, statement);
    return statement;
  }) as typeof db.prepare;
  return db;
}
