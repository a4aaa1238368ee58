/**
 * The online SQLite backup while another connection keeps writing: the copy is one committed state
 * (two tables written in the same transactions have the same rows in it), holds at least what was
 * there when it began, passes the restore check, and the writer was never blocked out.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backupSqlite } from "./backup-sqlite";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cpay-backup-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("backupSqlite", () => {
  it("Given a writer committing pairs of rows throughout, When backed up, Then the copy is one consistent state that opens", async () => {
    const source = join(dir, "cpay.sqlite");
    const live = new SqliteDatabase(source);
    live.pragma("journal_mode = WAL");
    live.exec(
      "CREATE TABLE debits (id INTEGER PRIMARY KEY, memo TEXT); CREATE TABLE credits (id INTEGER PRIMARY KEY, memo TEXT)",
    );
    const insertDebit = live.prepare("INSERT INTO debits (id, memo) VALUES (?, ?)");
    const insertCredit = live.prepare("INSERT INTO credits (id, memo) VALUES (?, ?)");
    let next = 0;
    const pair = live.transaction(() => {
      next += 1;
      const memo = "x".repeat(400);
      insertDebit.run(next, memo);
      insertCredit.run(next, memo);
    });
    // Enough pages (~8 MB) that the copy takes many event-loop turns if it were stepped.
    for (let i = 0; i < 10_000; i += 1) pair();
    const before = next;

    // The writer's failure is kept, not left unhandled, and fails the test below.
    let writing = true;
    let writerFailure: unknown = null;
    const writer = (async () => {
      while (writing) {
        pair();
        await new Promise((resolve) => setImmediate(resolve));
      }
    })().catch((error: unknown) => {
      writerFailure = error;
    });
    const destination = join(dir, "backup.sqlite");
    let report: Awaited<ReturnType<typeof backupSqlite>>;
    let atCopy: number;
    try {
      report = await backupSqlite(source, destination);
      // The writer goes on after the copy too: it was never locked out (waited for, not assumed to
      // have happened within 20 ms; the deadline is a safety net).
      atCopy = next;
      const deadline = Date.now() + 30_000;
      while (next === atCopy && writerFailure === null) {
        if (Date.now() > deadline) throw new Error("the writer wrote nothing after the copy in 30 s");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      writing = false;
      await writer;
    }
    if (writerFailure !== null) throw writerFailure;
    expect(next).toBeGreaterThan(atCopy);
    // ...and wrote while the copy was being made.
    expect(atCopy).toBeGreaterThan(before);
    live.close();

    const rows = Object.fromEntries(report.tables.map((table) => [table.name, table.rows]));
    expect(rows.debits).toBe(rows.credits);
    expect(rows.debits).toBeGreaterThanOrEqual(before);
    expect(rows.debits).toBeLessThanOrEqual(atCopy);
    expect(existsSync(`${destination}.partial`)).toBe(false);
    const copy = new SqliteDatabase(destination, { readonly: true });
    expect(copy.prepare("SELECT count(*) FROM debits").pluck().get()).toBe(rows.debits);
    copy.close();
  });

  it("Given a destination that exists, Then it refuses and leaves that file alone", async () => {
    const source = join(dir, "cpay.sqlite");
    new SqliteDatabase(source).close();
    const destination = join(dir, "taken.sqlite");
    new SqliteDatabase(destination).exec("CREATE TABLE kept (id INTEGER)");
    await expect(backupSqlite(source, destination)).rejects.toThrow("exists already");
    const kept = new SqliteDatabase(destination, { readonly: true });
    expect(kept.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'kept'").pluck().get()).toBe(1);
    kept.close();
  });
});
