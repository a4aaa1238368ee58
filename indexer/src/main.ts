/**
 * `npm run indexer`: the indexer as a long-lived service (config.ts lists its settings). Stops
 * cleanly on SIGINT/SIGTERM; a SIGKILL loses nothing either, because every committed transaction
 * carries its own checkpoint.
 */

import { ConfigError } from "@cpay/ledger/config";
import pino from "pino";
import { ClusterMismatchError } from "./cluster-binding";
import { loadIndexerConfig } from "./config";
import { runIndexer } from "./run-indexer";

async function main(): Promise<void> {
  const logger = pino({ level: process.env.LOG_LEVEL ?? "info", base: { service: "indexer" } });
  const config = loadIndexerConfig(process.env);
  const running = await runIndexer(config, logger);
  // The URL's origin only: a Helius URL carries its API key in the query.
  const rpc = new URL(config.rpcUrl).origin;
  logger.info(
    { health: `${running.server.url}/health`, rpc, environment: process.env.INDEXER_ENVIRONMENT ?? "test" },
    "indexer started",
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close();
    logger.flush();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ClusterMismatchError) {
    console.error(`indexer: ${error.message}`);
    process.exit(2);
  }
  console.error("indexer failed to start:", error);
  process.exit(1);
});
