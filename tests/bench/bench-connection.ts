/**
 * Where a bench child's service finds its chain: the localnet process named by
 * `BENCH_LOCALNET_MANIFEST` (over JSON-RPC + PubSub, as `bash scripts/start.sh` runs it), or else a
 * LiteSVM cluster made in the child itself (the in-process figures). Either way with the faucet that
 * funds the bench accounts, so the modes of the children read the same over both, and with the
 * indexer that confirms their transfers (the one writer of `confirmed`): over RPC its own process,
 * as scripts/start.sh runs it, so its CPU is not charged to the API process; in process beside the
 * service, since the cluster lives in this process.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChainConnection,
  localnetConnection,
  type RunningService,
  startService,
  type UsdgFaucet,
} from "@cpay/api";
import { createEmbeddedCluster, type EmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";
import { parseLocalnetManifest } from "@cpay/sdk/chain";
import pino from "pino";
import { inProcessConnection } from "../support/in-process-connection";
import { startIndexerBeside } from "../support/indexer-beside";
import { indexerProcess } from "../support/indexer-process";
import { BENCH_SERVICE_LIMITS } from "./bench-limits";

/** The env variable the bench sets on a child whose chain is the localnet process. */
export const LOCALNET_MANIFEST_ENV = "BENCH_LOCALNET_MANIFEST";

export interface BenchConnection {
  readonly connection: ChainConnection;
  readonly faucet: UsdgFaucet;
  /** The localnet manifest's path over RPC; null in process. */
  readonly manifestPath: string | null;
  /** The cluster in process; null over RPC. */
  readonly cluster: EmbeddedCluster | null;
}

/** The connection (see the file doc); `slotMs` only sets an in-process cluster's slot time. */
export async function benchConnection(options: { readonly slotMs?: number } = {}): Promise<BenchConnection> {
  const manifest = process.env[LOCALNET_MANIFEST_ENV];
  if (manifest !== undefined) {
    const connection = await localnetConnection(manifest);
    if (connection.testFaucet === null) throw new Error(`the localnet at ${manifest} has no faucet`);
    return { connection, faucet: connection.testFaucet, manifestPath: manifest, cluster: null };
  }
  const cluster = await createEmbeddedCluster(options.slotMs === undefined ? {} : { slotMs: options.slotMs });
  return { connection: await inProcessConnection(cluster), faucet: cluster, manifestPath: null, cluster };
}

/**
 * A bench child's service on its connection: SQLite in a fresh directory, logging at info to
 * /dev/null, and every limit that would measure itself instead of the API raised out of the way
 * (bench-limits.ts).
 */
export async function startBenchService(
  options: { readonly slotMs?: number; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<{ readonly service: RunningService; readonly faucet: UsdgFaucet }> {
  const { connection, faucet, manifestPath, cluster } = await benchConnection(
    options.slotMs === undefined ? {} : { slotMs: options.slotMs },
  );
  const dataDir = mkdtempSync(join(tmpdir(), "cpay-bench-"));
  const service = await startService({
    connection,
    env: {
      PORT: "0",
      DATABASE_URL: join(dataDir, "cpay.sqlite"),
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      ...BENCH_SERVICE_LIMITS,
      LOG_LEVEL: "info",
      ...options.env,
    },
    dataDir,
    logDestination: pino.destination({ dest: openSync("/dev/null", "w"), sync: false }),
  });
  if (cluster !== null) {
    await startIndexerBeside({ service, openChain: async () => inProcessChain(cluster) });
  } else if (manifestPath !== null) {
    await startIndexerProcess(service, manifestPath);
  }
  return { service, faucet };
}

/** The indexer as its own process on the service's database, stopped when this process exits. */
async function startIndexerProcess(service: RunningService, manifestPath: string): Promise<void> {
  const manifest = parseLocalnetManifest(JSON.parse(readFileSync(manifestPath, "utf8")));
  const indexer = indexerProcess({
    DATABASE_URL: service.context.config.databaseUrl,
    RPC_URL: manifest.rpcUrl,
    RPC_WS_URL: manifest.wsUrl,
    PROGRAM_ID: manifest.programId,
    USDG_MINT: manifest.usdgMint,
  });
  // The bench ends its children with SIGTERM (their handler exits): the indexer goes with them.
  process.on("exit", () => indexer.signalNow("SIGTERM"));
  await indexer.start();
}
