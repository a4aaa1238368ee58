/**
 * Fixed one-minute counting windows in the database (`rate_windows`), shared by every API process:
 * the per-key and relay rate limits and the failed-authentication limit count here, so two
 * processes spend one budget. A key's window starts at its first count and lasts WINDOW_MS; the
 * count and the window's start come back from the same upsert, so concurrent counts in any
 * processes never lose an increment or open two windows.
 */

import type { Database } from "@cpay/ledger/database";
import { and, eq, gt, lte, sql } from "drizzle-orm";

export const WINDOW_MS = 60_000;

export interface Window {
  /** Epoch ms the window opened. */
  readonly start: number;
  /** Counts in the window, this one included (for `count`). */
  readonly count: number;
}

/** Adds one to `key`'s window at `at` (opening a new window when the last one ended). */
export async function countInWindow(db: Database, key: string, at: number): Promise<Window> {
  const { rateWindows } = db.tables;
  const ended = sql`${rateWindows.windowStart} <= ${at - WINDOW_MS}`;
  const [row] = await db.read((q) =>
    q
      .insert(rateWindows)
      .values({ key, windowStart: at, count: 1 })
      .onConflictDoUpdate({
        target: rateWindows.key,
        set: {
          windowStart: sql`CASE WHEN ${ended} THEN ${at} ELSE ${rateWindows.windowStart} END`,
          count: sql`CASE WHEN ${ended} THEN 1 ELSE ${rateWindows.count} + 1 END`,
        },
      })
      .returning({ start: rateWindows.windowStart, count: rateWindows.count }),
  );
  if (row === undefined) throw new Error(`rate window ${key} was not written`);
  return { start: Number(row.start), count: Number(row.count) };
}

/** `key`'s window open at `at`, or null when none is. */
export async function currentWindow(db: Database, key: string, at: number): Promise<Window | null> {
  const { rateWindows } = db.tables;
  const [row] = await db.read((q) =>
    q
      .select({ start: rateWindows.windowStart, count: rateWindows.count })
      .from(rateWindows)
      .where(and(eq(rateWindows.key, key), gt(rateWindows.windowStart, at - WINDOW_MS))),
  );
  return row === undefined ? null : { start: Number(row.start), count: Number(row.count) };
}

/** Deletes windows that ended before `at` (one row per key would otherwise stay forever). */
export async function sweepEndedWindows(db: Database, at: number): Promise<void> {
  const { rateWindows } = db.tables;
  await db.read((q) => q.delete(rateWindows).where(lte(rateWindows.windowStart, at - WINDOW_MS)));
}

/** Seconds until the window that opened at `start` ends, seen at `at` (at least 1). */
export function secondsLeft(start: number, at: number): number {
  return Math.max(1, Math.ceil((start + WINDOW_MS - at) / 1000));
}
