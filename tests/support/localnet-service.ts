/**
 * The service in process as a deployment runs it against a cluster: connected over RPC to the
 * localnet process (directly, or at `urls`, e.g. a fault proxy in front of it), in a data directory
 * and a fresh database of its own (SQLite, or PostgreSQL under DATABASE_URL; api-database.ts).
 * `close` stops the service and its connection and removes its data; the localnet is the caller's.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChainConnection,
  localnetConnection,
  type RunningService,
  startService,
  type UsdgFaucet,
} from "@cpay/api";
import { freshDatabaseUrl } from "./api-database";
import type { LocalnetProcess } from "./localnet-process";
import { undoStack } from "./undo-stack";

export interface LocalnetService {
  readonly service: RunningService;
  readonly connection: ChainConnection;
  /** The localnet's USDG mint authority, for funding test accounts. */
  readonly faucet: UsdgFaucet;
  close(): Promise<void>;
}

export async function startLocalnetService(
  localnet: LocalnetProcess,
  options: {
    /** Service settings over PORT 0, the fresh database, a random master key and LOG_LEVEL silent. */
    readonly env?: Readonly<Record<string, string>>;
    readonly urls?: { readonly rpcUrl: string; readonly wsUrl: string };
  } = {},
): Promise<LocalnetService> {
  const cleanups = undoStack();
  const close = () => cleanups.undo();
  try {
    const connection = await localnetConnection(localnet.manifestPath, options.urls);
    cleanups.add(() => connection.close());
    const dataDir = mkdtempSync(join(tmpdir(), "cpay-service-"));
    cleanups.add(async () => rmSync(dataDir, { recursive: true, force: true }));
    const database = await freshDatabaseUrl(dataDir);
    cleanups.add(() => database.drop());
    const service = await startService({
      env: {
        PORT: "0",
        DATABASE_URL: database.url,
        SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
        LOG_LEVEL: "silent",
        ...options.env,
      },
      dataDir,
      connection,
    });
    cleanups.add(() => service.close());
    const faucet = connection.testFaucet;
    if (faucet === null) throw new Error("the localnet has no USDG faucet");
    return { service, connection, faucet, close };
  } catch (error) {
    await close();
    throw error;
  }
}
