/**
 * The standalone indexer's settings, from the environment (defaults: the embedded start command's
 * localnet and SQLite file, so `npm run indexer` next to `npm start` just works):
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `DATABASE_URL` | `./data/cpay.sqlite` | the API's database (SQLite path or `postgres://...`) |
 * | `RPC_URL` | `http://127.0.0.1:8899` | Solana JSON-RPC |
 * | `RPC_WS_URL` | `ws://127.0.0.1:8900` | Solana PubSub (`logsSubscribe`) |
 * | `PROGRAM_ID` | the agent-policy program | program whose logs are indexed |
 * | `USDG_MINT` | the localnet USDG mint | the mint named `USDG` in records |
 * | `INDEXER_HOST` / `INDEXER_PORT` | `127.0.0.1` / `3002` | health endpoint (and Helius receiver) |
 * | `INDEXER_POLL_MS` | `1000` | a pass at least this often, whatever the pushes say |
 * | `INDEXER_LEASE_MS` | `15000` | SQLite leader lease (PostgreSQL uses an advisory lock) |
 * | `HELIUS_AUTH_HEADER` | unset | serve `POST /helius/webhook`, accepting only this `Authorization` |
 * | `HELIUS_API_KEY`, `HELIUS_WEBHOOK_URL` | unset | create/update the Helius webhook at start |
 * | `HELIUS_NETWORK` | `mainnet` | `mainnet` or `devnet` (webhook type `raw` / `rawDevnet`) |
 * | `INDEXER_ENVIRONMENT` | `test` | which environment this process indexes (one process per environment): `live` reads the live environment's settings instead, as the API names them: `LIVE_DATABASE_URL`, `LIVE_RPC_URL` + `LIVE_WS_URL` (or `LIVE_HELIUS_API_KEY`: Helius' mainnet URLs), `LIVE_PROGRAM_ID`, `LIVE_USDG_MINT`, all required |
 */
import { resolve } from "node:path";
import { ConfigError, integerFromEnv } from "@cpay/ledger/config";
import { AGENT_POLICY_PROGRAM_ADDRESS } from "@cpay/sdk";
import { LOCALNET_KEY_LABELS, localnetKey } from "@cpay/sdk/chain";

export interface IndexerConfig {
  readonly databaseUrl: string;
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly programId: string;
  readonly usdgMint: string;
  readonly host: string;
  readonly port: number;
  readonly pollMs: number;
  readonly leaseMs: number;
  readonly helius: {
    readonly authHeader: string | null;
    readonly apiKey: string | null;
    readonly webhookUrl: string | null;
    readonly network: "mainnet" | "devnet";
  };
}

export function loadIndexerConfig(given: NodeJS.ProcessEnv, dataDir = resolve("data")): IndexerConfig {
  const environment = given.INDEXER_ENVIRONMENT ?? "test";
  if (environment !== "test" && environment !== "live") {
    throw new ConfigError(`INDEXER_ENVIRONMENT must be test or live, got "${environment}"`);
  }
  const env = environment === "live" ? liveSettingsOf(given) : given;
  const network = env.HELIUS_NETWORK ?? "mainnet";
  if (network !== "mainnet" && network !== "devnet") {
    throw new ConfigError(`HELIUS_NETWORK must be mainnet or devnet, got "${network}"`);
  }
  const helius = {
    authHeader: nonEmpty(env.HELIUS_AUTH_HEADER),
    apiKey: nonEmpty(env.HELIUS_API_KEY),
    webhookUrl: nonEmpty(env.HELIUS_WEBHOOK_URL),
    network,
  } as const;
  if (
    (helius.apiKey === null) !== (helius.webhookUrl === null) ||
    (helius.apiKey !== null && helius.authHeader === null)
  ) {
    throw new ConfigError(
      "HELIUS_API_KEY and HELIUS_WEBHOOK_URL go together, and need HELIUS_AUTH_HEADER (the receiver's credential)",
    );
  }
  return {
    databaseUrl: env.DATABASE_URL ?? resolve(dataDir, "cpay.sqlite"),
    rpcUrl: env.RPC_URL ?? "http://127.0.0.1:8899",
    wsUrl: env.RPC_WS_URL ?? "ws://127.0.0.1:8900",
    programId: env.PROGRAM_ID ?? AGENT_POLICY_PROGRAM_ADDRESS,
    usdgMint: env.USDG_MINT ?? localnetKey(LOCALNET_KEY_LABELS.usdgMint).address,
    host: env.INDEXER_HOST ?? "127.0.0.1",
    port: integerFromEnv(env, "INDEXER_PORT", 3002, 0, 65535),
    pollMs: integerFromEnv(env, "INDEXER_POLL_MS", 1000, 50, 60_000),
    leaseMs: integerFromEnv(env, "INDEXER_LEASE_MS", 15_000, 500, 600_000),
    helius,
  };
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value === "" ? null : value;
}

/**
 * The live environment's settings under the names the test environment's use here, so one reader
 * serves both; each is required, as the API requires it, so a live indexer never falls back to a
 * test default.
 */
function liveSettingsOf(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const required = (name: string): string => {
    const value = nonEmpty(env[name]);
    if (value === null) throw new ConfigError(`INDEXER_ENVIRONMENT=live needs ${name}`);
    return value;
  };
  const heliusKey = nonEmpty(env.LIVE_HELIUS_API_KEY);
  const rpcUrl = nonEmpty(env.LIVE_RPC_URL);
  const query = heliusKey === null ? "" : `?api-key=${encodeURIComponent(heliusKey)}`;
  return {
    ...env,
    DATABASE_URL: required("LIVE_DATABASE_URL"),
    RPC_URL:
      rpcUrl ?? (heliusKey === null ? required("LIVE_RPC_URL") : `https://mainnet.helius-rpc.com/${query}`),
    RPC_WS_URL: rpcUrl === null ? `wss://mainnet.helius-rpc.com/${query}` : required("LIVE_WS_URL"),
    PROGRAM_ID: required("LIVE_PROGRAM_ID"),
    USDG_MINT: required("LIVE_USDG_MINT"),
    HELIUS_NETWORK: "mainnet",
  };
}
