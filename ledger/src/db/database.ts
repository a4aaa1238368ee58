/**
 * Opening the database: SQLite (a file under `./data`, the embedded default) or PostgreSQL (when
 * `DATABASE_URL` is a `postgres://` URL), migrated from `migrations/<dialect>` at open.
 *
 * Every service function goes through `read` or `transaction`, never the driver directly:
 * - PostgreSQL: a pool; `transaction` is drizzle's (BEGIN ... COMMIT on one pooled client).
 * - SQLite (better-sqlite3) is synchronous and has one connection, and drizzle's SQLite
 *   transactions cannot span an `await`. `transaction` therefore takes a process-wide async lock
 *   and issues BEGIN IMMEDIATE / COMMIT itself; `read` takes the same lock, so nothing ever sees or
 *   joins another caller's open transaction. One process per SQLite file (the embedded default).
 *
 * Queries are written once, typed as PostgreSQL's query builder. At run time each dialect's
 * drizzle instance builds its own SQL from its own tables (schema.sqlite.ts); the two builders
 * share every method used here (select/insert/update/delete, where, orderBy, limit, offset,
 * returning, onConflictDoNothing/DoUpdate), which the suite checks by running on both.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import SqliteDatabase from "better-sqlite3";
import { sql } from "drizzle-orm";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Tables } from "./schema";
import { pgTables } from "./schema.pg";
import { sqliteTables } from "./schema.sqlite";
import { cachePreparedStatements } from "./statement-cache";

/** A query handle: the database, or the open transaction inside `transaction`. */
export type Db = NodePgDatabase<Record<string, never>>;

export interface Database {
  readonly dialect: "sqlite" | "postgres";
  readonly tables: Tables;
  /** Runs reads; on SQLite, never interleaved with an open transaction. */
  read<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Runs `work` atomically: every write inside commits together or not at all. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const MIGRATIONS_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../migrations");

/** Opens (and migrates) the database named by `url`: `postgres://...`, or a SQLite file path. */
export async function openDatabase(url: string): Promise<Database> {
  return /^postgres(ql)?:\/\//.test(url) ? openPostgres(url) : openSqlite(url);
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle pooled connection the server drops (restart, failover, admin termination) is an error
  // event with no query to fail; the pool discards that client and the next query reconnects.
  pool.on("error", () => {});
  const db = drizzlePg(pool);
  // Migrations of several processes starting at once are serialised by an advisory lock.
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(7264601)");
    await migratePg(db, { migrationsFolder: `${MIGRATIONS_ROOT}/postgres` });
  } finally {
    await client.query("SELECT pg_advisory_unlock(7264601)").catch(() => {});
    client.release();
  }
  return {
    dialect: "postgres",
    tables: pgTables,
    read: (work) => work(db),
    transaction: (work) => db.transaction((tx) => work(tx as unknown as Db)),
    close: () => pool.end(),
  };
}

async function openSqlite(file: string): Promise<Database> {
  if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
  const connection = new SqliteDatabase(file);
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = NORMAL");
  connection.pragma("busy_timeout = 5000");
  // Deleted rows are overwritten, not left in free pages: a handed-over signer seed or an expired
  // idempotency record must not survive in the file (or in an archived copy of it).
  connection.pragma("secure_delete = ON");
  const db = drizzleSqlite(connection);
  migrateSqlite(db, { migrationsFolder: `${MIGRATIONS_ROOT}/sqlite` });
  cachePreparedStatements(connection);
  const asPg = db as unknown as Db;
  const lock = createAsyncLock();
  let closed = false;
  return {
    dialect: "sqlite",
    tables: sqliteTables,
    read: (work) => lock(() => work(asPg)),
    transaction: (work) =>
      lock(async () => {
        db.run(sql`BEGIN IMMEDIATE`);
        try {
          const result = await work(asPg);
          db.run(sql`COMMIT`);
          return result;
        } catch (error) {
          db.run(sql`ROLLBACK`);
          throw error;
        }
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await lock(async () => connection.close());
    },
  };
}

/** A FIFO mutex: `lock(fn)` runs fn after every earlier fn has settled. */
function createAsyncLock() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => {});
    return run;
  };
}

/** True when `error` (or its cause) is a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e !== null && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
      return true;
    }
  }
  return false;
}
