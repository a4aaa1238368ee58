import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { buildConfigInitializeInstruction, findConfigPda, LIMIT_DECIMALS } from "@cpay/sdk";
import {
  createEmbeddedCluster,
  type EmbeddedCluster,
  inProcessChain,
  USDG_DECIMALS,
} from "@cpay/sdk/cluster";
import { configureProofPool } from "@cpay/sdk/confidential";
import { address, type KeyPairSigner } from "@solana/kit";
import type pino from "pino";
import { type AdminServer, startAdminServer } from "./admin/start-admin-server";
import { createApp } from "./app";
import { startBackgroundJobs } from "./background";
import { sendInstructions } from "./chain/send-instructions";
import { ConfigError, loadConfig } from "./config";
import { openDatabaseForCluster } from "./db/open-for-cluster";
import { handlers } from "./handlers";
import { createLogger } from "./http/logger";
import type { ServiceContext } from "./service-context";
import "./jobs";
import { withReserveSpend } from "./reserve/reserve-scope";

export interface ServiceOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where the SQLite file and the development master key live. Default `./data`. */
  readonly dataDir?: string;
  /** A cluster to use instead of starting an embedded one (tests: a manual slot clock). */
  readonly cluster?: EmbeddedCluster;
  readonly logDestination?: pino.DestinationStream;
  readonly checkResponses?: boolean;
  /** The clock webhook retries are scheduled by (default `Date.now`). */
  readonly clock?: () => number;
  /**
   * The embedded cluster lives in memory, so a SQLite file written against an earlier one
   * describes a chain that is gone. `archive` renames such a file aside (`cpay-<time>.sqlite`) and
   * starts empty; `refuse` (the default) stops with an explanation.
   */
  readonly staleData?: "archive" | "refuse";
  /** Also serve the admin surface (admin CLI) on 127.0.0.1:`ADMIN_PORT` (api/src/admin). */
  readonly admin?: boolean;
}

export interface RunningService {
  readonly context: ServiceContext;
  readonly url: string;
  readonly server: Server;
  /** The admin surface, when started with `admin: true`. */
  readonly admin: AdminServer | null;
  /** Where an earlier run's SQLite file was moved (`staleData: "archive"`), or null. */
  readonly archivedDatabase: string | null;
  close(): Promise<void>;
}

/** Starts everything and listens on `config.port` (0 = any free port). */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const config = loadConfig(options.env ?? process.env, options.dataDir);
  configureProofPool({ workers: config.proofWorkers });
  const logger = createLogger({
    level: config.logLevel,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const cluster = options.cluster ?? (await createEmbeddedCluster());
  const ownsCluster = options.cluster === undefined;
  // The simulator's: the database is tied to the embedded cluster's instance id.
  const { db, archivedTo } = await openDatabaseForCluster(
    config.databaseUrl,
    cluster,
    options.staleData ?? "refuse",
  );
  // The simulator's: the fee-reserve key comes from the embedded cluster (configuration, next).
  const feeReserveKey = cluster.keys.feeReserve;
  if (feeReserveKey === null)
    throw new ConfigError("the cluster's fee reserve key is not available to the service");
  const feePayer = await feeReserveKey.toSigner();
  const chain = inProcessChain(cluster);
  const context: ServiceContext = {
    config,
    db,
    chain,
    feePayer,
    registrar: feePayer,
    assets: { USDG: { mint: address(chain.usdgMint), decimals: USDG_DECIMALS } },
    logger,
    clock: options.clock ?? Date.now,
  };
  if (LIMIT_DECIMALS !== USDG_DECIMALS) throw new ConfigError("policy limits and USDG disagree on decimals");
  // The simulator's: the program's upgrade authority key comes from the embedded cluster.
  await ensureProgramConfig(context, await cluster.keys.programUpgradeAuthority.toSigner());
  const app = createApp(context, { handlers, checkResponses: options.checkResponses ?? false });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  const admin = options.admin
    ? await startAdminServer(context, {
        env: options.env ?? process.env,
        dataDir: options.dataDir ?? resolve("data"),
        // The simulator's: the admin `fund` command mints USDG from the embedded cluster's faucet.
        faucet: cluster,
      }).catch(async (error: unknown) => {
        // Nothing else has started yet: undo what did, so a taken admin port leaves no listener.
        await new Promise((done) => server.close(done));
        await db.close();
        if (ownsCluster) cluster.stop();
        throw error;
      })
    : null;
  const stopJobs = startBackgroundJobs(context);
  let closing: Promise<void> | null = null;
  return {
    context,
    url: `http://${config.host}:${port}`,
    server,
    admin,
    archivedDatabase: archivedTo,
    close() {
      closing ??= (async () => {
        await admin?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await stopJobs();
        await chain.close();
        await db.close();
        if (ownsCluster) cluster.stop();
        logger.flush();
      })();
      return closing;
    },
  };
}

/**
 * Initialises the program's config with the service as registrar, once per cluster; `admin` is the
 * program's upgrade authority, the only key the program lets initialise it.
 */
async function ensureProgramConfig(service: ServiceContext, admin: KeyPairSigner): Promise<void> {
  const [configPda] = await findConfigPda();
  if ((await service.chain.getAccount(configPda)) !== null) return;
  await withReserveSpend(service, null, async () => {
    await sendInstructions(service, [
      await buildConfigInitializeInstruction({ admin, registrar: service.registrar.address }),
    ]);
  });
}
