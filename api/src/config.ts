/**
 * Service configuration from the environment, with the embedded defaults written down here (and
 * in api/README.md). Every value is validated at start-up; a bad one stops the service with a
 * message naming the variable.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `PORT` | 3000 | HTTP port of `/v1` |
 * | `HOST` | 127.0.0.1 | interface to listen on |
 * | `DATABASE_URL` | `./data/cpay.sqlite` | SQLite file path, or `postgres://...` |
 * | `SERVICE_MASTER_KEY` | (dev only) `./data/master.key`, created on first start | 32 bytes hex/base64 sealing the vault |
 * | `SERVICE_MASTER_KEYS_PREVIOUS` | none | comma-separated earlier master keys, still opening what they sealed while a rotation runs (`npm run admin -- vault reseal`) |
 * | `RATE_LIMIT_PER_MINUTE` | 600 | requests per API key per minute |
 * | `AUTH_FAILURE_LIMIT_PER_MINUTE` | 60 | failed authentications (401) per client address per minute, after which the address gets 429 until the minute ends |
 * | `LOG_LEVEL` | info | pino level |
 * | `WEBHOOKS_ALLOW_LOCAL` | unset | `1` admits http and local addresses as webhook URLs (local development and tests only) |
 * | `WEBHOOK_ATTEMPT_DEADLINE_MS` | 10000 | absolute time for one delivery attempt: connect, response headers and body |
 * | `WEBHOOK_ACCOUNT_SLOTS` | 8 | delivery attempts in flight per account per process (of the worker's 32) |
 * | `WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT` | 10 | live subscriptions an account may have |
 * | `WEBHOOK_SECRET_ROTATION_GRACE_SECONDS` | 86400 | how long a rotated-out secret keeps signing beside the new one |
 * | `RELAY_DAILY_FEE_CAP_LAMPORTS` | 100000000 | what the reserve may be out per self-custody agent per UTC day: fees plus rent not returned (0.1 SOL) |
 * | `RELAY_RATE_LIMIT_PER_MINUTE` | 60 | relay requests per agent per minute |
 * | `IDEMPOTENCY_LEASE_SECONDS` | 30 | how long an `Idempotency-Key` claim outlives its holder's last renewal; then the next request with the key recovers it |
 * | `TRANSFER_RECONCILE_AFTER_SECONDS` | 120 | how old a `submitting` transfer must be before crash recovery judges it (10-3600); it must outlive the cluster's blockhash lifetime, so a dead process's transaction can no longer land |
 * | `AGENTS_PER_OWNER_MAX` | 20 | agents one owner may have (the reserve pays each one's rent, never returned) |
 * | `RESERVE_DAILY_BUDGET_LAMPORTS` | 1000000000 | what the fee reserve may be out per account (an agent's counted to its owner) per UTC day: fees plus rent deposits not seen coming back, each transaction reserved at its maximum before it is signed (1 SOL) |
 * | `PROOF_WORKERS` | the available cores | worker threads making confidential-transfer proofs (the SDK's proof pool), so one process proves on every core while its event loop serves requests |
 * | `LOCALNET_DIR` | `./data/localnet` | the localnet's ledger directory: the service reads the manifest the localnet writes there (`localnet.json`: URLs, genesis hash, program id, USDG mint, the test keypairs' files) |
 * | `SOLANA_RPC_URL` | the manifest's | JSON-RPC URL of the test cluster, instead of the manifest's |
 * | `SOLANA_WS_URL` | the manifest's | PubSub URL of the test cluster, instead of the manifest's |
 * | `MAINNET_RPC_URL` | must be unset | the live environment (mainnet-beta: its program id, mint, fee reserve and registrar) is not configurable yet: `svc_live_` keys are always refused, and setting it stops the service rather than let live keys act on the test cluster |
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { ConfigError, integerFromEnv } from "@cpay/ledger/config";
import { MAX_PROOF_WORKERS } from "@cpay/sdk/confidential";
import { generateMasterKeyHex, type MasterKey, parseMasterKey, parseMasterKeyList } from "./vault/vault";

// The API's modules take every configuration helper from here; the two shared with the indexer live
// in the ledger.
export { ConfigError, integerFromEnv };

export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly masterKey: MasterKey;
  /** Earlier master keys that still open (never seal) records: a rotation in progress. */
  readonly previousMasterKeys: readonly MasterKey[];
  /** Where the master key came from, for the start banner (never the key itself). */
  readonly masterKeySource: "environment" | "development file";
  readonly rateLimitPerMinute: number;
  /** Failed authentications per client address per minute before its requests are refused. */
  readonly authFailureLimitPerMinute: number;
  readonly logLevel: string;
  /** `WEBHOOKS_ALLOW_LOCAL=1`: webhook URLs may be http and resolve to local addresses (tests only). */
  readonly webhooksAllowLocal: boolean;
  /** Webhook delivery limits and secret rotation (api/README.md, "Webhooks: delivery limits and signatures"). */
  readonly webhooks: WebhookLimits;
  /** Lamports the reserve may be out per self-custody agent per UTC day for relayed transactions (fees and rent). */
  readonly relayDailyFeeCapLamports: number;
  /** Relay requests per agent per minute (beside the per-key limit). */
  readonly relayRateLimitPerMinute: number;
  /** `IDEMPOTENCY_LEASE_SECONDS` in ms: a claim not renewed for this long belongs to a dead process. */
  readonly idempotencyLeaseMs: number;
  /**
   * `TRANSFER_RECONCILE_AFTER_SECONDS` in ms: crash recovery judges a `submitting` transfer only
   * once it is this old, when no transaction of a dead process can land any more.
   */
  readonly transferReconcileAfterMs: number;
  /** Agents one owner may have: each costs the reserve rent it never gets back. */
  readonly agentsPerOwnerMax: number;
  /** Lamports the fee reserve may be out per account (agents count to their owner) per UTC day. */
  readonly reserveDailyBudgetLamports: number;
  /** Worker threads of the SDK's proof pool (`PROOF_WORKERS`, default the available cores). */
  readonly proofWorkers: number;
  /** The test cluster: the localnet's manifest, and URLs that override the manifest's. */
  readonly localnet: LocalnetSettings;
  /** Always false in this build: there is no mainnet-beta chain port, so live keys are refused. */
  readonly liveModeAvailable: false;
}

export interface LocalnetSettings {
  /** `LOCALNET_DIR/localnet.json`: what the localnet process wrote once it served. */
  readonly manifestPath: string;
  readonly rpcUrl?: string;
  readonly wsUrl?: string;
}

export interface WebhookLimits {
  /** Absolute milliseconds one delivery attempt may take, connect to last response byte. */
  readonly attemptDeadlineMs: number;
  /** Attempts in flight per account per process, so one account's receivers cannot take every slot. */
  readonly accountSlots: number;
  /** Live subscriptions per account. */
  readonly maxSubscriptionsPerAccount: number;
  /** Seconds a rotated-out signing secret keeps signing beside the new one. */
  readonly rotationGraceSeconds: number;
}

/** The webhook settings of `env`, with their defaults. */
export function webhookLimitsFromEnv(env: NodeJS.ProcessEnv): WebhookLimits {
  return {
    attemptDeadlineMs: integerFromEnv(env, "WEBHOOK_ATTEMPT_DEADLINE_MS", 10_000, 100, 45_000),
    accountSlots: integerFromEnv(env, "WEBHOOK_ACCOUNT_SLOTS", 8, 1, 32),
    maxSubscriptionsPerAccount: integerFromEnv(env, "WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT", 10, 1, 1_000),
    rotationGraceSeconds: integerFromEnv(env, "WEBHOOK_SECRET_ROTATION_GRACE_SECONDS", 86_400, 0, 2_592_000),
  };
}

/**
 * Reads the configuration. `dataDir` holds the SQLite file and the development master key; when
 * SERVICE_MASTER_KEY is unset, a key is created there once (mode 0600) — fine for a local
 * cluster, never for real funds (set the variable, from a KMS, in production).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, dataDir = resolve("data")): ServiceConfig {
  const fromEnv = env.SERVICE_MASTER_KEY;
  let masterKey: MasterKey;
  let masterKeySource: ServiceConfig["masterKeySource"];
  try {
    if (fromEnv !== undefined && fromEnv !== "") {
      masterKey = parseMasterKey(fromEnv);
      masterKeySource = "environment";
    } else {
      const file = resolve(dataDir, "master.key");
      if (!existsSync(file)) {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, `${generateMasterKeyHex()}\n`, { mode: 0o600, flag: "wx" });
      }
      masterKey = parseMasterKey(readFileSync(file, "utf8"));
      masterKeySource = "development file";
    }
  } catch (error) {
    throw new ConfigError(`SERVICE_MASTER_KEY: ${(error as Error).message}`);
  }
  let previousMasterKeys: MasterKey[];
  try {
    previousMasterKeys = parseMasterKeyList(env.SERVICE_MASTER_KEYS_PREVIOUS ?? "");
  } catch (error) {
    throw new ConfigError(`SERVICE_MASTER_KEYS_PREVIOUS: ${(error as Error).message}`);
  }
  if (env.MAINNET_RPC_URL !== undefined && env.MAINNET_RPC_URL !== "") {
    // Accepting it would let svc_live_ keys authenticate while every request still reached the test
    // cluster; refusing to start is the only honest answer until the live environment is configurable.
    throw new ConfigError(
      "MAINNET_RPC_URL is set, but this build has no live (mainnet-beta) environment to use it for; unset it",
    );
  }
  const logLevel = env.LOG_LEVEL ?? "info";
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  }
  return {
    localnet: localnetSettingsFromEnv(env, dataDir),
    port: integerFromEnv(env, "PORT", 3000, 0, 65535),
    host: env.HOST ?? "127.0.0.1",
    databaseUrl: env.DATABASE_URL ?? resolve(dataDir, "cpay.sqlite"),
    masterKey,
    previousMasterKeys: previousMasterKeys.filter((key) => key.id !== masterKey.id),
    masterKeySource,
    rateLimitPerMinute: integerFromEnv(env, "RATE_LIMIT_PER_MINUTE", 600, 1, 1_000_000_000),
    authFailureLimitPerMinute: integerFromEnv(env, "AUTH_FAILURE_LIMIT_PER_MINUTE", 60, 1, 1_000_000_000),
    logLevel,
    liveModeAvailable: false,
    webhooksAllowLocal: env.WEBHOOKS_ALLOW_LOCAL === "1",
    webhooks: webhookLimitsFromEnv(env),
    relayDailyFeeCapLamports: integerFromEnv(
      env,
      "RELAY_DAILY_FEE_CAP_LAMPORTS",
      100_000_000,
      0,
      1_000_000_000_000,
    ),
    relayRateLimitPerMinute: integerFromEnv(env, "RELAY_RATE_LIMIT_PER_MINUTE", 60, 1, 1_000_000),
    idempotencyLeaseMs: integerFromEnv(env, "IDEMPOTENCY_LEASE_SECONDS", 30, 1, 3600) * 1000,
    transferReconcileAfterMs: integerFromEnv(env, "TRANSFER_RECONCILE_AFTER_SECONDS", 120, 10, 3600) * 1000,
    agentsPerOwnerMax: integerFromEnv(env, "AGENTS_PER_OWNER_MAX", 20, 0, 1_000_000),
    proofWorkers: integerFromEnv(
      env,
      "PROOF_WORKERS",
      Math.min(availableParallelism(), MAX_PROOF_WORKERS),
      1,
      MAX_PROOF_WORKERS,
    ),
    reserveDailyBudgetLamports: integerFromEnv(
      env,
      "RESERVE_DAILY_BUDGET_LAMPORTS",
      1_000_000_000,
      0,
      1_000_000_000_000,
    ),
  };
}

function localnetSettingsFromEnv(env: NodeJS.ProcessEnv, dataDir: string): LocalnetSettings {
  const url = (name: string, protocols: readonly string[]) => {
    const value = env[name];
    if (value === undefined || value === "") return undefined;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`${name} must be a URL, got "${value}"`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(`${name} must be a ${protocols.join(" or ")} URL, got "${value}"`);
    }
    return value;
  };
  const rpcUrl = url("SOLANA_RPC_URL", ["http:", "https:"]);
  const wsUrl = url("SOLANA_WS_URL", ["ws:", "wss:"]);
  return {
    manifestPath: resolve(env.LOCALNET_DIR || resolve(dataDir, "localnet"), "localnet.json"),
    ...(rpcUrl === undefined ? {} : { rpcUrl }),
    ...(wsUrl === undefined ? {} : { wsUrl }),
  };
}
