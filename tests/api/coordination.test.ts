/**
 * The database coordination of API processes (api/src/coordination): leases, turns, job leaders
 * and shared rate windows, each exercised through two database handles on one database — two
 * processes as far as the database can tell. Runs on SQLite and, with DATABASE_URL, PostgreSQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  countInWindow,
  isLeaseLive,
  jobLeadership,
  releaseLease,
  renewLease,
  tryAcquireLease,
  withTurn,
} from "@cpay/api/coordination";
import { type Database, openDatabase } from "@cpay/ledger/database";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/api-database";

const logger = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` until it holds; the deadline is a safety net for a busy machine, not a schedule. */
async function until(what: string, done: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} not within 30 s`);
    await sleep(20);
  }
}

describe("coordination through the database", () => {
  let dir: string;
  let drop: () => Promise<void>;
  let url: string;
  let first: Database;
  let second: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "cpay-coord-"));
    const fresh = await freshDatabaseUrl(dir);
    drop = fresh.drop;
    url = fresh.url;
    first = await openDatabase(fresh.url);
    second = await openDatabase(fresh.url);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it("Given a held lease, Then nobody else takes it until it lapses, and the old holder can neither renew nor release the new one", async () => {
    // Long enough that a busy machine cannot let it lapse before the next two calls
    const held = await tryAcquireLease(first, "t:lease", 2_000);
    expect(held).not.toBeNull();
    expect(await tryAcquireLease(second, "t:lease", 2_000)).toBeNull();
    expect(await isLeaseLive(second, "t:lease")).toBe(true);
    await until("the lease to lapse", async () => !(await isLeaseLive(second, "t:lease")));
    const taken = await tryAcquireLease(second, "t:lease", 10_000);
    expect(taken).not.toBeNull();
    if (held === null || taken === null) return;
    expect(await renewLease(first, held, 10_000)).toBe(false);
    await releaseLease(first, held);
    expect(await isLeaseLive(first, "t:lease")).toBe(true);
    await releaseLease(second, taken);
    expect(await isLeaseLive(first, "t:lease")).toBe(false);
  });

  it("Given many takers racing for one free lease from two handles, Then exactly one wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => tryAcquireLease(i % 2 === 0 ? first : second, "t:race", 10_000)),
    );
    expect(results.filter((lease) => lease !== null)).toHaveLength(1);
  });

  it("Given turns of one name from two handles, Then their work never overlaps and all of it runs", async () => {
    let inside = 0;
    let most = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withTurn({ db: i % 2 === 0 ? first : second, logger }, "t:turn", async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(5);
          inside -= 1;
          done.push(i);
        }),
      ),
    );
    expect(most).toBe(1);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it("Given a turn whose holder died (its lease left behind), Then the next caller takes it over once it lapses", async () => {
    const dead = await tryAcquireLease(first, "t:dead-holder", 400);
    expect(dead).not.toBeNull();
    const started = Date.now();
    const ran = await withTurn({ db: second, logger }, "t:dead-holder", async () => Date.now() - started);
    expect(ran).toBeGreaterThanOrEqual(300);
    expect(await isLeaseLive(second, "t:dead-holder")).toBe(false);
  });

  it("Given one job on two handles passing at once, Then each item is processed once, and a dead leader is taken over", async () => {
    const queue = Array.from({ length: 40 }, (_, i) => i);
    const processed: number[] = [];
    // A pass takes what is still queued, works on it a while, then removes it: two passes at once
    // would both take the same items.
    const pass = async () => {
      const batch = queue.slice(0, 5);
      await sleep(10);
      for (const item of batch) {
        processed.push(item);
        queue.splice(queue.indexOf(item), 1);
      }
    };
    // The job's own lease length: a short one could lapse while a busy machine stalls a pass, and
    // then two passes would run at once by design.
    const a = jobLeadership(first, logger, "t-job");
    const b = jobLeadership(second, logger, "t-job");
    while (queue.length > 0) await Promise.all([a.run(pass), b.run(pass)]);
    expect(processed.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));

    await a.resign();
    await b.resign();
  });

  it("Given a job leader whose process dies (it stops renewing, never resigns), Then another process leads once its lease lapses", async () => {
    const doomed = await openDatabase(url);
    const dying = jobLeadership(doomed, logger, "t-takeover", 400);
    const survivor = jobLeadership(second, logger, "t-takeover", 400);
    let dyingRan = false;
    await dying.run(async () => {
      dyingRan = true;
    });
    expect(dyingRan).toBe(true);
    // Its connection gone, the dead process's renewals fail and its lease is left to lapse.
    await doomed.close();
    const started = Date.now();
    let survivorRan = false;
    while (!survivorRan && Date.now() - started < 30_000) {
      await survivor.run(async () => {
        survivorRan = true;
      });
      if (!survivorRan) await sleep(20);
    }
    expect(survivorRan).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    await survivor.resign();
    await dying.resign();
  });

  it("Given counts of one key from two handles at once, Then none is lost and each sees its own place", async () => {
    const at = Date.now();
    const counts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => countInWindow(i % 2 === 0 ? first : second, "t:window", at)),
    );
    expect(counts.map((window) => window.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(new Set(counts.map((window) => window.start))).toEqual(new Set([at]));
    const next = await countInWindow(second, "t:window", at + 60_000);
    expect(next).toEqual({ start: at + 60_000, count: 1 });
  });
});
