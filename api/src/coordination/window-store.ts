/**
 * Where the rate limits count (http/rate-limit.ts, http/auth-failure-limit.ts): the database's
 * `rate_windows` on PostgreSQL, which any number of API processes share, so they spend one budget;
 * process memory on SQLite, which admits one API process per file (the file lock of
 * `@cpay/ledger/process-lock`), so memory already holds the whole budget and every request is
 * spared a write (a per-request upsert halved the throughput of a cheap authenticated GET there).
 * Both keep the same fixed windows (rate-window.ts), and every limiter on one database shares one
 * store.
 */
import type { Database } from "@cpay/ledger/database";
import { countInWindow, currentWindow, sweepEndedWindows, WINDOW_MS, type Window } from "./rate-window";

export interface WindowStore {
  /** Adds one to `key`'s window at `at` (opening a new one when the last ended); the window after. */
  count(key: string, at: number): Promise<Window>;
  /** `key`'s window open at `at`, or null. */
  current(key: string, at: number): Promise<Window | null>;
  /** Forgets windows that ended before `at`. */
  sweep(at: number): Promise<void>;
}

const stores = new WeakMap<Database, WindowStore>();

/** The store of `db`'s limiters (one per database handle). */
export function windowStoreFor(db: Database): WindowStore {
  let store = stores.get(db);
  if (store === undefined) {
    store = db.dialect === "postgres" ? databaseWindows(db) : memoryWindows();
    stores.set(db, store);
  }
  return store;
}

export function databaseWindows(db: Database): WindowStore {
  return {
    count: (key, at) => countInWindow(db, key, at),
    current: (key, at) => currentWindow(db, key, at),
    sweep: (at) => sweepEndedWindows(db, at),
  };
}

export function memoryWindows(): WindowStore {
  const windows = new Map<string, { start: number; count: number }>();
  const open = (key: string, at: number) => {
    const window = windows.get(key);
    return window === undefined || window.start <= at - WINDOW_MS ? null : window;
  };
  return {
    async count(key, at) {
      const window = open(key, at) ?? { start: at, count: 0 };
      window.count += 1;
      windows.set(key, window);
      return { start: window.start, count: window.count };
    },
    async current(key, at) {
      const window = open(key, at);
      return window === null ? null : { start: window.start, count: window.count };
    },
    async sweep(at) {
      for (const [key, window] of windows) if (window.start <= at - WINDOW_MS) windows.delete(key);
    },
  };
}
