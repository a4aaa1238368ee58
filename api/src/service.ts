/**
 * Builds and runs the service: configuration -> database (migrated) -> the test cluster (the
 * embedded one, unless a cluster is passed in) -> the program's config (registrar) -> the Express
 * app -> HTTP server -> background jobs. `close()` is the graceful shutdown: stop accepting,
 * finish in-flight requests, stop background jobs, close the database, stop the cluster's timer.
 */
import { existsSync, renameSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildConfigInitializeInstruction, findConfigPda, LIMIT_DECIMALS } from "@cpay/sdk";
import { createEmbeddedCluster, type EmbeddedCluster, USDG_DECIMALS } from "@cpay/sdk/cluster";
import { address } from "@solana/kit";
import { eq } from "drizzle-orm";
import type pino from "pino";
import { createApp } from "./app";
import { startBackgroundJobs } from "./background";
import { sendInstructions } from "./chain/send-instructions";
import { ConfigError, loadConfig, type ServiceConfig } from "./config";
import { type Database, openDatabase } from "./db/database";
import { handlers } from "./handlers";
import { createLogger } from "./http/logger";
import type { ServiceContext } from "./service-context";
import "./jobs";

export interface ServiceOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where the SQLite file and the development master key live. Default `./data`. */
  readonly dataDir?: string;
  /** A cluster to use instead of starting an embedded one (tests: a manual slot clock). */
  readonly cluster?: EmbeddedCluster;
  readonly logDestination?: pino.DestinationStream;
  readonly checkResponses?: boolean;
  /**
   * The embedded cluster lives in memory, so a SQLite file written against an earlier one
   * describes a chain that is gone. `archive` renames such a file aside (`cpay-<time>.sqlite`) and
   * starts empty; `refuse` (the default) stops with an explanation.
   */
  readonly staleData?: "archive" | "refuse";
}

export interface RunningService {
  readonly context: ServiceContext;
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Starts everything and listens on `config.port` (0 = any free port). */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const config = loadConfig(options.env ?? process.env, options.dataDir);
  const logger = createLogger({
    level: config.logLevel,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const cluster = options.cluster ?? (await createEmbeddedCluster());
  const ownsCluster = options.cluster === undefined;
  const db = await openForCluster(config, cluster, options.staleData ?? "refuse");
  const feeReserveKey = cluster.keys.feeReserve;
  if (feeReserveKey === null)
    throw new ConfigError("the cluster's fee reserve key is not available to the service");
  const feePayer = await feeReserveKey.toSigner();
  const context: ServiceContext = {
    config,
    db,
    cluster,
    feePayer,
    registrar: feePayer,
    assets: { USDG: { mint: address(cluster.usdgMint), decimals: USDG_DECIMALS } },
    logger,
  };
  if (LIMIT_DECIMALS !== USDG_DECIMALS) throw new ConfigError("policy limits and USDG disagree on decimals");
  await ensureProgramConfig(context);
  const app = createApp(context, { handlers, checkResponses: options.checkResponses ?? false });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  const stopJobs = startBackgroundJobs(context);
  let closing: Promise<void> | null = null;
  return {
    context,
    url: `http://${config.host}:${port}`,
    server,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await stopJobs();
        await db.close();
        if (ownsCluster) cluster.stop();
        logger.flush();
      })();
      return closing;
    },
  };
}

/** Opens the database and ties it to this cluster instance (see `staleData`). */
async function openForCluster(
  config: ServiceConfig,
  cluster: EmbeddedCluster,
  staleData: "archive" | "refuse",
): Promise<Database> {
  let db = await openDatabase(config.databaseUrl);
  const { serviceMeta } = db.tables;
  const read = () =>
    db.read((q) => q.select().from(serviceMeta).where(eq(serviceMeta.key, "cluster_genesis")));
  const [recorded] = await read();
  if (recorded !== undefined && recorded.value !== cluster.genesisHash) {
    const sqliteFile = db.dialect === "sqlite" && existsSync(config.databaseUrl) ? config.databaseUrl : null;
    if (staleData === "refuse" || sqliteFile === null) {
      await db.close();
      throw new ConfigError(
        `the database at ${db.dialect === "sqlite" ? config.databaseUrl : "DATABASE_URL"} belongs to another ` +
          `cluster instance (genesis ${recorded.value}, this one is ${cluster.genesisHash}); the embedded cluster ` +
          "keeps its chain in memory, so point DATABASE_URL at a new database (or start with staleData: archive)",
      );
    }
    await db.close();
    const archived =
      sqliteFile.replace(/\.sqlite$/, "") + `-${new Date().toISOString().replace(/[:.]/g, "-")}.sqlite`;
    renameSync(sqliteFile, archived);
    for (const suffix of ["-wal", "-shm"]) {
      if (existsSync(sqliteFile + suffix)) renameSync(sqliteFile + suffix, archived + suffix);
    }
    db = await openDatabase(config.databaseUrl);
  }
  await db.transaction((tx) =>
    tx
      .insert(db.tables.serviceMeta)
      .values({ key: "cluster_genesis", value: cluster.genesisHash })
      .onConflictDoNothing()
      .then(() => undefined),
  );
  return db;
}

/** Initialises the program's config with the service as registrar, once per cluster. */
async function ensureProgramConfig(service: ServiceContext): Promise<void> {
  const [configPda] = await findConfigPda();
  if (service.cluster.getAccount(configPda) !== null) return;
  const admin = await service.cluster.keys.programUpgradeAuthority.toSigner();
  await sendInstructions(service, [
    await buildConfigInitializeInstruction({ admin, registrar: service.registrar.address }),
  ]);
}
