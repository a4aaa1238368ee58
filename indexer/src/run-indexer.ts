/**
 * Starts the standalone indexer from its config: the database, the RPC chain (plus Helius pushes
 * when configured, and the Helius webhook created or updated), the engine, and its HTTP server.
 * Returns one `close` that stops them in reverse order.
 */
import { openDatabase } from "@cpay/ledger/database";
import type { Router } from "express";
import type { Logger } from "pino";
import type { IndexerChain } from "./chain/indexer-chain";
import { createRpcChain } from "./chain/rpc-chain";
import { assertDatabaseOfCluster } from "./cluster-binding";
import type { IndexerConfig } from "./config";
import { type IndexerServer, startIndexerServer } from "./health-server";
import { withHeliusPushes } from "./helius/helius-chain";
import { createHeliusReceiver } from "./helius/helius-receiver";
import { ensureHeliusWebhook } from "./helius/manage-helius-webhook";
import { type RunningIndexer, startIndexer } from "./indexer";

export interface StandaloneIndexer {
  readonly indexer: RunningIndexer;
  readonly server: IndexerServer;
  close(): Promise<void>;
}

export async function runIndexer(config: IndexerConfig, logger: Logger): Promise<StandaloneIndexer> {
  const db = await openDatabase(config.databaseUrl);
  try {
    await assertDatabaseOfCluster(db, config.rpcUrl);
  } catch (error) {
    await db.close();
    throw error;
  }
  const rpc = createRpcChain({
    rpcUrl: config.rpcUrl,
    wsUrl: config.wsUrl,
    programId: config.programId,
    usdgMint: config.usdgMint,
    pollMs: config.pollMs,
    onError: (error) =>
      logger.warn({ err: (error as Error).message }, "RPC subscription failed; resubscribing"),
  });
  let chain: IndexerChain = rpc;
  const routers: Router[] = [];
  const { helius } = config;
  if (helius.authHeader !== null) {
    const pushes = withHeliusPushes(rpc);
    chain = pushes.chain;
    routers.push(
      createHeliusReceiver({ authHeader: helius.authHeader, onTransactions: (txs) => pushes.receive(txs) }),
    );
    if (helius.apiKey !== null && helius.webhookUrl !== null) {
      const webhookId = await ensureHeliusWebhook({
        apiKey: helius.apiKey,
        webhookUrl: helius.webhookUrl,
        authHeader: helius.authHeader,
        programId: config.programId,
        network: helius.network,
      });
      logger.info({ webhook_id: webhookId }, "Helius webhook in place");
    }
  }
  const indexer = startIndexer({
    db,
    databaseUrl: config.databaseUrl,
    chain,
    logger,
    pollMs: config.pollMs,
    leaseMs: config.leaseMs,
  });
  const server = await startIndexerServer(indexer, { host: config.host, port: config.port, routers });
  return {
    indexer,
    server,
    async close() {
      await server.close();
      await indexer.stop();
      await chain.close();
      await db.close();
    },
  };
}
