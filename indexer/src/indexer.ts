/**
 * The indexer service's engine: while this process leads (leadership.ts) it runs index passes
 * whenever the chain hints at activity (a slot, a log notification, a Helius push) and at least
 * every `pollMs`, and checks finality every `finalityMs`. Passes never overlap; a hint during a
 * pass runs one more pass right after it.
 */
import type { Database } from "@cpay/ledger/database";
import type { Logger } from "pino";
import type { IndexerChain } from "./chain/indexer-chain";
import { type Checkpoint, readCheckpoint } from "./checkpoint";
import { checkFinality } from "./finality";
import { createIndexWalk, type PassContext, runIndexPass } from "./index-pass";
import { startLeadership } from "./leadership";

export interface IndexerOptions {
  readonly db: Database;
  /** The database's URL (PostgreSQL leadership takes its own connection). */
  readonly databaseUrl: string;
  readonly chain: IndexerChain;
  readonly logger: Logger;
  /** Event timestamps and leases (default `Date.now`). */
  readonly clock?: () => number;
  readonly pollMs?: number;
  readonly finalityMs?: number;
  readonly leaseMs?: number;
}

export interface IndexerStatus {
  readonly leader: boolean;
  readonly checkpoint: Checkpoint | null;
  /** Program transactions this process has committed since it started. */
  readonly indexed: number;
  readonly lastPassAt: string | null;
  /** The last pass's failure, cleared by the next pass that succeeds. */
  readonly lastError: string | null;
}

export interface RunningIndexer {
  status(): Promise<IndexerStatus>;
  /** Runs passes now until the checkpoint has caught up with what the chain has at `confirmed`. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

export function startIndexer(options: IndexerOptions): RunningIndexer {
  const clock = options.clock ?? Date.now;
  const { logger, chain } = options;
  const ctx: PassContext = {
    db: options.db,
    clock,
    usdgMint: chain.usdgMint,
    chain,
    logger,
    walk: createIndexWalk(),
  };
  const finalityMs = options.finalityMs ?? 2000;
  let stopped = false;
  let indexed = 0;
  let lastPassAt: string | null = null;
  let lastError: string | null = null;
  let lastFinality = 0;
  let passing: Promise<void> | null = null;
  let again = false;

  const pass = async () => {
    try {
      for (;;) {
        const result = await runIndexPass(ctx);
        indexed += result.indexed;
        if (!result.incomplete || result.stalled || stopped) break;
      }
      if (clock() - lastFinality >= finalityMs) {
        lastFinality = clock();
        const finality = await checkFinality(ctx);
        if (finality.reverted > 0) logger.warn(finality, "transactions gone at finalized were reverted");
      }
      lastPassAt = new Date(clock()).toISOString();
      lastError = null;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      logger.warn({ err: lastError }, "index pass failed; the next pass retries from the checkpoint");
    }
  };
  const schedule = (): Promise<void> => {
    if (stopped || !leadership.isLeader()) return Promise.resolve();
    if (passing !== null) {
      again = true;
      return passing;
    }
    passing = pass().finally(() => {
      passing = null;
      if (again) {
        again = false;
        void schedule();
      }
    });
    return passing;
  };

  const leadership = startLeadership({
    db: options.db,
    databaseUrl: options.databaseUrl,
    clock,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    onChange: (leader) => {
      logger.info({ leader }, leader ? "indexer leads" : "indexer stands by");
      if (leader) void schedule();
    },
    onError: (error) => logger.warn({ err: (error as Error).message }, "indexer leadership check failed"),
  });
  const unwatch = chain.watch(() => void schedule());
  const timer = setInterval(() => void schedule(), options.pollMs ?? 1000);

  return {
    async status() {
      return {
        leader: leadership.isLeader(),
        checkpoint: await readCheckpoint(ctx),
        indexed,
        lastPassAt,
        lastError,
      };
    },
    async catchUp() {
      if (!leadership.isLeader()) throw new Error("this indexer is not the leader");
      while (passing !== null) await passing;
      await schedule();
      if (lastError !== null) throw new Error(`index pass failed: ${lastError}`);
    },
    async stop() {
      stopped = true;
      unwatch();
      clearInterval(timer);
      while (passing !== null) await passing;
      await leadership.release();
    },
  };
}
