import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { buildConfigInitializeInstruction, findConfigPda, LIMIT_DECIMALS, USDG_DECIMALS } from "@cpay/sdk";
import { configureProofPool } from "@cpay/sdk/confidential";
import { address, type KeyPairSigner } from "@solana/kit";
import type pino from "pino";
import { type AdminServer, startAdminServer } from "./admin/start-admin-server";
import { createApp } from "./app";
import { startBackgroundJobs } from "./background";
import { type ChainConnection, localnetConnection } from "./chain/chain-connection";
import { sendInstructions } from "./chain/send-instructions";
import { ConfigError, loadConfig } from "./config";
import { openDatabaseForChain } from "./db/open-for-chain";
import { handlers } from "./handlers";
import { createLogger } from "./http/logger";
import type { ServiceContext } from "./service-context";
import "./jobs";
import { withReserveSpend } from "./reserve/reserve-scope";

export interface ServiceOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where the SQLite file and the development master key live. Default `./data`. */
  readonly dataDir?: string;
  /**
   * How to reach the chain. Default: the localnet described by the manifest in `LOCALNET_DIR`
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
  readonly context: ServiceContext;
  readonly url: string;
  readonly server: Server;
  /** The admin surface, when started with `admin: true`. */
  readonly admin: AdminServer | null;
  /** Where the chain is (for the start banner). */
  readonly connection: ChainConnection;
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
  const connection =
    options.connection ?? (await localnetConnection(config.localnet.manifestPath, config.localnet));
  const ownsConnection = options.connection === undefined;
  const { chain, feePayer } = connection;
  let db: Awaited<ReturnType<typeof openDatabaseForChain>>;
  try {
    db = await openDatabaseForChain(config.databaseUrl, chain.genesisHash);
  } catch (error) {
    if (ownsConnection) await connection.close();
    throw error;
  }
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
  await ensureProgramConfig(context, connection.programAdmin);
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
        faucet: connection.testFaucet,
      }).catch(async (error: unknown) => {
        // Nothing else has started yet: undo what did, so a taken admin port leaves no listener.
        await new Promise((done) => server.close(done));
        await db.close();
        if (ownsConnection) await connection.close();
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
    connection,
    close() {
      closing ??= (async () => {
        await admin?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await stopJobs();
        await db.close();
        if (ownsConnection) await connection.close();
        logger.flush();
      })();
      return closing;
    },
  };
}

/**
 * Initialises the program's config with the service as registrar, once per cluster; `admin` is the
 * program's upgrade authority, the only key the program lets initialise it. Without it (a cluster
 * whose config someone else set up) the config must exist already.
 */
async function ensureProgramConfig(service: ServiceContext, admin: KeyPairSigner | null): Promise<void> {
  const [configPda] = await findConfigPda({ programAddress: address(service.chain.programId) });
  if ((await service.chain.getAccount(configPda)) !== null) return;
  if (admin === null) {
    throw new ConfigError(
      `the agent-policy program's config (${configPda}) is not initialised on this cluster, and no upgrade authority key was given to initialise it`,
    );
  }
  await withReserveSpend(service, null, async () => {
    await sendInstructions(service, [
      await buildConfigInitializeInstruction({ admin, registrar: service.registrar.address }),
    ]);
  });
}
