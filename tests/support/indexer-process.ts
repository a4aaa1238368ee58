/**
 * The indexer's entry point (indexer/src/main.ts) as its own process, the way scripts/start.sh runs
 * it: on a free port, at info level, since the line that says it is ready (and names its health
 * URL, the match's first group) is an info log.
 */
import type { LocalnetProcess } from "./localnet-process";
import { type ServiceProcess, serviceProcess } from "./service-process";

/** An indexer process with `env` (DATABASE_URL, RPC_URL, ... as indexer/src/main.ts reads them). */
export function indexerProcess(env: NodeJS.ProcessEnv): ServiceProcess {
  return serviceProcess({
    entry: "indexer/src/main.ts",
    env: { INDEXER_PORT: "0", LOG_LEVEL: "info", ...env },
    ready: /"health":"([^"]+)"[^\n]*indexer started/,
  });
}

/** The indexer of the localnet process `localnet`, writing to the database at `databaseUrl`. */
export function localnetIndexerProcess(
  localnet: LocalnetProcess,
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
): ServiceProcess {
  return indexerProcess({
    DATABASE_URL: databaseUrl,
    RPC_URL: localnet.rpcUrl(),
    RPC_WS_URL: localnet.wsUrl(),
    ...env,
  });
}
