/**
 * SQLite statements kept prepared across queries. drizzle's better-sqlite3 session calls
 * `connection.prepare(sql)` for every query it runs, and compiling the same SQL text again was a
 * measurable share of the API's CPU per transfer (the query shapes repeat; only parameters vary).
 * Wrapping `prepare` with a bounded cache keyed by the SQL text hands back the compiled statement.
 *
 * Why reuse is safe here: better-sqlite3 is synchronous and drizzle uses a statement immediately
 * after preparing it (run/get/all, never an iterator left open), so two uses never overlap. The one
 * piece of state a statement keeps between uses is raw mode, which drizzle turns on (`raw()`) for
 * queries it maps itself and never turns off: it is reset on every hand-out, so each use starts as
 * a freshly prepared statement would.
 */
import type SqliteDatabase from "better-sqlite3";

/** Distinct query shapes the service has are a few hundred; beyond this the oldest is dropped. */
const CAPACITY = 1_000;

export function cachePreparedStatements(connection: SqliteDatabase.Database): void {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, SqliteDatabase.Statement>();
  connection.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached !== undefined) {
      if (cached.reader) cached.raw(false);
      return cached;
    }
    const statement = prepare(source);
    if (cache.size >= CAPACITY) cache.delete(cache.keys().next().value as string);
    cache.set(source, statement);
    return statement;
  }) as typeof connection.prepare;
}
