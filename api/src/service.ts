import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { ConfigError } from "@cpay/ledger/config";
import type { Database } from "@cpay/ledger/database";
import { buildConfigInitializeInstruction, findConfigPda, LIMIT_DECIMALS, USDG_DECIMALS } from "@cpay/sdk";
import { configureProofPool } from "@cpay/sdk/confidential";
import { address, type KeyPairSigner } from "@solana/kit";
import type { Express } from "express";
import type pino from "pino";
import type { ChainConnection } from "./chain/chain-connection";
import { explorerTransactionUrl } from "./chain/explorer-link";
import { sendInstructions } from "./chain/send-instructions";
import { checkProgramConfig } from "./chain/startup-checks";
import { startBackgroundJobs } from "./coordination/background-jobs";
import type { EnvironmentSettings } from "./core/config/environment-settings";
import { loadConfig, type ServiceConfig } from "./core/config/service-config";
import { createLogger, type Logger } from "./core/logger";
import type { ServiceContext } from "./core/service-context";
import { openDatabaseForChain } from "./db/open-for-chain";
import { connectEnvironment } from "./environments/connect-environment";
import { type AdminServer, startAdminServer } from "./http/admin/start-admin-server";
import { createApp } from "./http/app";
import { frontRouter } from "./http/front-router";
import { handlers } from "./http/handlers";
import "./jobs";
import { ensureFeeAccount } from "./reserve/fee-account";
import { withReserveSpend } from "./reserve/reserve-scope";

export interface ServiceOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where the SQLite file and the development master key live. Default `./data`. */
  readonly dataDir?: string;
  /**
   * How to reach the test environment's chain. Default: the localnet described by the manifest in `LOCALNET_DIR`
   * (`<dataDir>/localnet`), over JSON-RPC + PubSub (`SOLANA_RPC_URL`/`SOLANA_WS_URL` override its
   * URLs). The service closes a connection it opened itself, never one it was given.
   */
  readonly connection?: ChainConnection;
  readonly logDestination?: pino.DestinationStream;
  readonly checkResponses?: boolean;
  /** The clock webhook retries are scheduled by (default `Date.now`). */
  readonly clock?: () => number;
  /** Also serve the admin surface (admin CLI) on 127.0.0.1:`ADMIN_PORT` (api/src/admin). */
  readonly admin?: boolean;
}

export interface RunningService {
  /** The test environment's context (what `svc_test_` keys reach). */
  readonly context: ServiceContext;
  /** Every configured environment; `live` null when svc_live_ keys are refused. */
  readonly environments: { readonly test: ServiceContext; readonly live: ServiceContext | null };
  readonly url: string;
  readonly server: Server;
  /** The admin surface, when started with `admin: true`. */
  readonly admin: AdminServer | null;
  /** Where the test environment's chain is (for the start banner). */
  readonly connection: ChainConnection;
  /** Where the live environment's chain is, when configured. */
  readonly liveConnection: ChainConnection | null;
  close(): Promise<void>;
}

/** One environment while it runs: its context, its `/v1` app, and how to stop it. */
interface OpenEnvironment {
  readonly context: ServiceContext;
  readonly connection: ChainConnection;
  readonly app: Express;
  close(): Promise<void>;
}

/**
 * Starts everything and listens on `config.port` (0 = any free port): one HTTP server in front of
 * one `/v1` app per environment, picked by the key's prefix (http/front-router.ts).
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const config = loadConfig(options.env ?? process.env, options.dataDir);
  configureProofPool({ workers: config.proofWorkers });
  const logger = createLogger({
    level: config.logLevel,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  if (LIMIT_DECIMALS !== USDG_DECIMALS) throw new ConfigError("policy limits and USDG disagree on decimals");
  // The port is known once listening (PORT=0 picks one); the default dashboard origin names it.
  const listening = { port: config.port };
  const shared = {
    config,
    logger,
    clock: options.clock ?? Date.now,
    checkResponses: options.checkResponses ?? false,
    dashboardOrigin: () => config.dashboard.origin ?? `http://localhost:${listening.port}`,
  };
  const test = await openEnvironment(config.environments.test, shared, options.connection);
  let live: OpenEnvironment | null = null;
  try {
    live = config.environments.live === null ? null : await openEnvironment(config.environments.live, shared);
  } catch (error) {
    await test.close();
    throw error;
  }
  const opened = [test, ...(live === null ? [] : [live])];
  const closeAll = () => Promise.all(opened.map((environment) => environment.close()));
  const router = frontRouter({ test: test.app, live: live?.app ?? null });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const listening = createServer(router);
      listening.once("error", reject);
      listening.listen(config.port, config.host, () => resolve(listening));
    });
  } catch (error) {
    await closeAll();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  listening.port = port;
  const admin = options.admin
    ? await startAdminServer(
        { test: test.context, live: live?.context ?? null },
        {
          env: options.env ?? process.env,
          dataDir: options.dataDir ?? resolve("data"),
          faucet: test.connection.testFaucet,
        },
      ).catch(async (error: unknown) => {
        // Nothing else has started yet: undo what did, so a taken admin port leaves no listener.
        await new Promise((done) => server.close(done));
        await closeAll();
        throw error;
      })
    : null;
  const stopJobs = opened.map((environment) => startBackgroundJobs(environment.context));
  let closing: Promise<void> | null = null;
  return {
    context: test.context,
    environments: { test: test.context, live: live?.context ?? null },
    url: `http://${config.host}:${port}`,
    server,
    admin,
    connection: test.connection,
    liveConnection: live?.connection ?? null,
    close() {
      closing ??= (async () => {
        await admin?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await Promise.all(stopJobs.map((stop) => stop()));
        await closeAll();
        logger.flush();
      })();
      return closing;
    },
  };
}

/**
 * Connects an environment's chain (or takes `given`, which it then never closes), opens its own
 * database for that chain, makes sure the program config is there with its registrar and the
 * reserve's fee account exists (reserve/fee-account.ts), and builds its `/v1` app.
 */
async function openEnvironment(
  settings: EnvironmentSettings,
  shared: {
    readonly config: ServiceConfig;
    readonly logger: Logger;
    readonly clock: () => number;
    readonly checkResponses: boolean;
    readonly dashboardOrigin: () => string;
  },
  given?: ChainConnection,
): Promise<OpenEnvironment> {
  const connection = given ?? (await connectEnvironment(settings));
  const closeConnection = given === undefined ? () => connection.close() : async () => {};
  let db: Database;
  try {
    db = await openDatabaseForChain(
      settings.databaseUrl,
      connection.chain.genesisHash,
      settings.name === "live" ? "LIVE_DATABASE_URL" : "DATABASE_URL",
    );
  } catch (error) {
    await closeConnection();
    throw error;
  }
  const close = async () => {
    await db.close();
    await closeConnection();
  };
  const { chain } = connection;
  const context: ServiceContext = {
    environment: settings.name,
    config: shared.config,
    db,
    chain,
    feePayer: connection.feePayer,
    registrar: connection.registrar,
    assets: { USDG: { mint: address(chain.usdgMint), decimals: USDG_DECIMALS } },
    logger: settings.name === "test" ? shared.logger : shared.logger.child({ environment: settings.name }),
    clock: shared.clock,
    dashboardOrigin: shared.dashboardOrigin,
    explorerTransactionUrl: explorerTransactionUrl(chain.genesisHash, connection.localnetRpcUrl ?? null),
  };
  try {
    await ensureProgramConfig(context, connection.programAdmin);
    await ensureFeeAccount(context);
    await checkProgramConfig(chain, {
      where: `the ${settings.name} environment`,
      programId: chain.programId,
      registrar: context.registrar.address,
    });
  } catch (error) {
    await close();
    throw error;
  }
  const app = createApp(context, { handlers, checkResponses: shared.checkResponses });
  return { context, connection, app, close };
}

/**
 * Initialises the program's config with the service as registrar, once per cluster; `admin` is the
 * program's upgrade authority, the only key the program lets initialise it. Without it (a cluster
 * whose config someone else set up) the config must exist already.
 */
async function ensureProgramConfig(service: ServiceContext, admin: KeyPairSigner | null): Promise<void> {
  const programAddress = address(service.chain.programId);
  const [configPda] = await findConfigPda({ programAddress });
  // Without the key, the check after this one explains what is missing.
  if (admin === null || (await service.chain.getAccount(configPda)) !== null) return;
  await withReserveSpend(service, null, async () => {
    await sendInstructions(service, [
      await buildConfigInitializeInstruction({ admin, registrar: service.registrar.address, programAddress }),
    ]);
  });
}
