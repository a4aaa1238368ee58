/**
 * The indexer against the load it must follow, both measured in the same run on one backlog:
 * - baseline, the cluster's production rate: BACKLOG public owner transfers (`POST /v1/transfers`,
 *   `confidential: false`, TRANSFER_CONCURRENCY requests in flight, as in api-throughput.ts) made
 *   through the API on an embedded cluster with SQLite; program transactions landed per second of
 *   wall time. This is the expected load: what the service makes the chain produce at full speed.
 * - value, the indexing rate: a fresh indexer (`startIndexer` on the embedded chain, empty
 *   checkpoint, its own connection to the API's database file) started after the backlog landed,
 *   timed from start until `catchUp()` returns; program transactions committed (decoded, enriched
 *   from the chain, applied with their events, `indexed_events` rows and checkpoint) per second.
 *   The backlog's count includes the handful of setup transactions (config, handles) before it.
 * Goal: the indexer keeps up with 10x the expected load (value / baseline >= 10). Each side is the
 * median of ROUNDS rounds, each a fresh world with its own backlog.
 *
 * The API's settle job races the indexer to confirm each transfer, and whichever observes the fact
 * first does the work (transfer-transitions.ts); a lost race leaves the indexer only the checks.
 * So the indexer does all of it: the slot clock is stopped while the backlog is made (nothing
 * reaches `confirmed`, the settle job finds nothing to settle), the API is closed (its jobs stop),
 * and only then do the slots move so the backlog is confirmed. Every transfer is then `submitted`,
 * exactly as the API leaves it at submission, and the indexer confirms each one and records both
 * `transfer.confirmed` events (sent, received); the run fails if it did not. Production with the
 * settle job idle is, if anything, faster than usual, which only makes the goal harder.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { indexerChainOver, startIndexer } from "@cpay/indexer";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { inProcessChain } from "@cpay/localnet/cluster";
import { and, count, eq } from "drizzle-orm";
import pino from "pino";
import { startApiWorld, usdg } from "../support/api-world";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { BENCH_SERVICE_LIMITS } from "./bench-limits";
import { benchScale } from "./bench-scale";
import { median } from "./transfer-cost";

// The smoke keeps the whole backlog (one round): a backlog is what this bench asks of the service
// (its reserve budget among others), and a short one would not show a limit it runs into.
const BACKLOG = benchScale("BENCH_INDEXER_BACKLOG", { full: 300, smoke: 300 });
const ROUNDS = benchScale("BENCH_INDEXER_ROUNDS", { full: 3, smoke: 1 });
const TRANSFER_CONCURRENCY = 4;

interface Round {
  /** Program transactions landed per second while the backlog was made. */
  readonly production: number;
  /** Program transactions committed per second by the catching-up indexer. */
  readonly indexing: number;
}

export const indexerThroughput: BenchEntry = {
  name: "indexer throughput",
  async run(): Promise<BenchResult[]> {
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await measureRound());
    return [
      {
        name: "indexer: program transactions decoded+stored per second",
        unit: "transactions/s",
        value: Number(median(rounds.map((r) => r.indexing)).toFixed(1)),
        baselineName: "cluster production rate (same run)",
        baseline: Number(median(rounds.map((r) => r.production)).toFixed(1)),
        goal: 10,
        higherIsBetter: true,
      },
    ];
  },
};

/** One backlog on a fresh world: made through the API, then indexed from an empty checkpoint. */
async function measureRound(): Promise<Round> {
  const world = await startApiWorld({ indexer: false, env: { ...BENCH_SERVICE_LIMITS } });
  try {
    const sender = await world.account("sender");
    await world.account("recipient");
    await world.fund(sender.account, { public: usdg(BACKLOG) });
    await world.slots(2);

    world.cluster.clock.stop();
    const produceStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: TRANSFER_CONCURRENCY }, async () => {
        while (next < BACKLOG) {
          next += 1;
          await sender.client.call("createTransfer", {
            body: { to: "@recipient", amount: "0.01", confidential: false },
          });
        }
      }),
    );
    const production = BACKLOG / ((performance.now() - produceStarted) / 1000);
    await world.service.close();
    // One slot makes every landed transaction `confirmed`; the clock stays stopped, so nothing
    // becomes `finalized` mid-run and no new slots wake the indexer.
    world.cluster.clock.advance(1);

    const databaseUrl = world.service.context.config.databaseUrl;
    const db = await openDatabase(databaseUrl);
    try {
      const chain = indexerChainOver(inProcessChain(world.cluster));
      const indexStarted = performance.now();
      const indexer = startIndexer({ db, databaseUrl, chain, logger: pino({ level: "warn" }) });
      while (!(await indexer.status()).leader) await sleep(1);
      await indexer.catchUp();
      const indexing = (await indexer.status()).indexed / ((performance.now() - indexStarted) / 1000);
      await indexer.stop();
      await chain.close();
      await checkIndexerDidTheWork(db, BACKLOG);
      return { production, indexing };
    } finally {
      await db.close();
    }
  } finally {
    await world.close();
  }
}

/** Fails the run unless the indexer confirmed every transfer and recorded both its events. */
async function checkIndexerDidTheWork(db: Database, transfersMade: number): Promise<void> {
  const { transfers, events } = db.tables;
  const [confirmed] = await db.read((d) =>
    d
      .select({ n: count() })
      .from(transfers)
      .where(and(eq(transfers.status, "confirmed"), eq(transfers.phase, "settled"))),
  );
  const [confirmedEvents] = await db.read((d) =>
    d.select({ n: count() }).from(events).where(eq(events.type, "transfer.confirmed")),
  );
  if (confirmed?.n !== transfersMade || confirmedEvents?.n !== 2 * transfersMade) {
    throw new Error(
      `the indexer did not do the full work: ${confirmed?.n} of ${transfersMade} transfers confirmed, ` +
        `${confirmedEvents?.n} of ${2 * transfersMade} transfer.confirmed events`,
    );
  }
}
