/**
 * One API process per SQLite file. The API caches key lookups in process (http/key-lookup.ts) and
 * drops that cache on its own writes only, so a second API process on the same file would keep a
 * key revoked through the first working; the start command's `archive` choice would even move the
 * first one's file aside. The indexer shares the file by design and takes no such lock.
 *
 * The lock is an OS file lock the kernel drops when the process dies (SIGKILL included): SQLite's
 * own (fcntl) RESERVED lock on a sidecar file `<file>.api-lock`, taken by a transaction that is
 * opened and never finished. The holder writes who it is into that file just before, and a RESERVED
 * lock still lets others read, so a refused process can name the holder.
 */
import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { ConfigError } from "../config";

export interface ProcessLock {
  /** Gives the lock up (closing the lock file's connection). */
  release(): void;
}

/** Takes `file`'s API lock, or throws ConfigError naming the file and the process holding it. */
export function lockDatabaseFile(file: string): ProcessLock {
  const lockFile = `${file}.api-lock`;
  mkdirSync(dirname(resolve(lockFile)), { recursive: true });
  // No busy wait: a held lock is an answer, not a contention to sit out.
  const connection = new SqliteDatabase(lockFile, { timeout: 0 });
  try {
    connection.exec(
      "CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)",
    );
    connection
      .prepare("INSERT OR REPLACE INTO holder (id, pid, host, since) VALUES (1, ?, ?, ?)")
      .run(process.pid, hostname(), new Date().toISOString());
    connection.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if ((error as { code?: unknown }).code !== "SQLITE_BUSY") {
      connection.close();
      throw error;
    }
    const holder = readHolder(connection);
    connection.close();
    throw new ConfigError(
      `the SQLite database ${file} is in use by another API process (${holder}). One API process per ` +
        "SQLite file: each keeps its own cache of API keys, so a key revoked through one would keep " +
        "working in the other. Stop that process, or give this one another DATABASE_URL",
    );
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      connection.exec("ROLLBACK");
      connection.close();
    },
  };
}

function readHolder(connection: SqliteDatabase.Database): string {
  try {
    const row = connection.prepare("SELECT pid, host, since FROM holder WHERE id = 1").get() as
      | { pid: number; host: string; since: string }
      | undefined;
    // Two processes starting at the same moment can leave the loser's own row there.
    if (row === undefined || row.pid === process.pid) return "unknown";
    return `pid ${row.pid} on ${row.host}, since ${row.since}`;
  } catch {
    return "unknown";
  }
}
