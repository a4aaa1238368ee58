/**
 * An indexer beside a service started in a suite's process (every API world's, and the suites that
 * start services themselves): on the same database, through a chain port of its own, as production
 * runs the two. The indexer is the one writer of `confirmed`, so without it no transfer of a suite
 * would ever confirm. Its log lines go where the caller says (an API world: where the service's go,
 * so the plaintext canary reads both; else warnings to stderr). Suites that run an indexer of their
 * own (the indexer world, the SIGKILLed indexer process, a forked chain) start none of these.
 */
import type { Writable } from "node:stream";
import type { RunningService } from "@cpay/api";
import { indexerChainOver, type RunningIndexer, startIndexer } from "@cpay/indexer";
import type { ChainPort } from "@cpay/sdk/chain";
import pino from "pino";

export interface IndexerBeside {
  readonly indexer: RunningIndexer;
  close(): Promise<void>;
}

export async function startIndexerBeside(input: {
  readonly service: RunningService;
  readonly openChain: () => Promise<ChainPort>;
  /** Where its log lines go (at info); without one, warnings and errors go to stderr. */
  readonly logDestination?: Writable;
}): Promise<IndexerBeside> {
  const port = await input.openChain();
  const indexer = startIndexer({
    db: input.service.context.db,
    databaseUrl: input.service.context.config.databaseUrl,
    chain: indexerChainOver(port),
    logger:
      input.logDestination === undefined
        ? pino({ level: "warn" }, pino.destination(2))
        : pino({ level: "info" }, input.logDestination),
    // One process: a short lease lets a suite that restarts its service take over fast.
    leaseMs: 1000,
  });
  return {
    indexer,
    async close() {
      await indexer.stop();
      await port.close();
    },
  };
}
