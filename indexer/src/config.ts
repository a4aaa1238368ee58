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

export function loadIndexerConfig(env: NodeJS.ProcessEnv, dataDir = resolve("data")): IndexerConfig {
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
