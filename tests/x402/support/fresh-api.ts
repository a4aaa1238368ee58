/**
 * A fresh API instance for a world whose chain is the localnet process: the world's own service is
 * stopped (one API process per SQLite file) and a new one started on the same database and chain,
 * with nothing in memory from the first — as after a restart, or on another replica. Whatever it
 * knows of earlier requests, it read from the database. The world's service stays closed: a suite
 * makes this its last step.
 */
import { localnetConnection, type ServiceContext, startService } from "@cpay/api";
import type { ApiWorld } from "../../support/api-world";

export interface FreshApi {
  readonly url: string;
  /** The new instance's context (its own database handle). */
  readonly context: ServiceContext;
  close(): Promise<void>;
}

/** Restarts `world`'s API as a new instance with `env` (the world's master key and settings). */
export async function restartApi(world: ApiWorld, env: Record<string, string>): Promise<FreshApi> {
  if (world.localnet === null)
    throw new Error("a fresh API instance needs the localnet process (chain: rpc)");
  await world.service.close();
  const connection = await localnetConnection(world.localnet.manifestPath);
  const service = await startService({
    env: {
      PORT: "0",
      DATABASE_URL: world.service.context.config.databaseUrl,
      RATE_LIMIT_PER_MINUTE: "100000",
      AUTH_FAILURE_LIMIT_PER_MINUTE: "100000",
      LOG_LEVEL: "silent",
      ...env,
    },
    connection,
  }).catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  return {
    url: service.url,
    context: service.context,
    async close() {
      await service.close();
      await connection.close();
    },
  };
}
