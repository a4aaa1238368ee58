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
 * | `AUTH_FAILURE_LIMIT_PER_MINUTE` | 60 | failed authentications (401) per client address per minute, after which the address's failing credentials get 429 until the minute ends (a valid key or session is always served) |
 * | `TRUST_PROXY` | unset (no proxy trusted) | the reverse proxies whose `X-Forwarded-For` names the client address: a hop count (1-10) or comma-separated addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal` (`true` refused); trust-proxy.ts |
 * | `LOG_LEVEL` | info | pino level |
 * | `DASHBOARD_ORIGIN` | `http://localhost:<PORT>` (the port listened on) | the dashboard's origin: WebAuthn's expected origin, its hostname the RP ID; https makes the session cookie `Secure` |
 * | `SESSION_IDLE_MINUTES` | 30 | a dashboard session unused this long ends (1-1440) |
 * | `SESSION_MAX_HOURS` | 12 | a dashboard session ends this long after sign-in, used or not (1-720) |
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
 * | `RESERVE_DAILY_BUDGET_LAMPORTS` | 1000000000 | what the fee reserve may lose per account (an agent's counted to its owner) per UTC day: fees plus rent it may not get back, each transaction reserved at its maximum before it is signed (1 SOL) |
 * | `RESERVE_ADVANCE_CAP_LAMPORTS` | 5000000000 | what the fee reserve may have advanced per account at once and not yet got back: the rent of Receipts (back when the receipt job closes them) and holds (back when decided or expired), reserved before signing (5 SOL, about 3,000 receipts) |
 * | `ACCOUNT_OPENING_FEE_USDG` | 1 | what a sender pays, in USDG, when its public transfer makes the fee reserve open the recipient's token account for an owner outside the service (whoever closes the account takes its rent); above 0, at most 1000 (account-opening-fee-setting.ts) |
 * | `PROOF_WORKERS` | the available cores | worker threads making confidential-transfer proofs (the SDK's proof pool), so one process proves on every core while its event loop serves requests |
 * | `LOCALNET_DIR` | `./data/localnet` | the test environment's localnet directory: the service reads the manifest the localnet writes there (`localnet.json`: URLs, genesis hash, program id, USDG mint, the test keypairs' files) |
 * | `SOLANA_RPC_URL` | the manifest's | JSON-RPC URL of the test cluster, instead of the manifest's |
 * | `SOLANA_WS_URL` | the manifest's | PubSub URL of the test cluster, instead of the manifest's |
 * | `TEST_FEE_RESERVE_SIGNER` | unset | set: the test environment is a cluster without a manifest (devnet), described by the `TEST_` settings below and `SOLANA_RPC_URL`/`SOLANA_WS_URL`; a signer setting (below) |
 * | `TEST_REGISTRAR_SIGNER` | (with `TEST_FEE_RESERVE_SIGNER`) | the test program config's registrar, a signer setting |
 * | `TEST_PROGRAM_ID` | the localnet's program id | the agent-policy program of the test cluster |
 * | `TEST_USDG_MINT` | (with `TEST_FEE_RESERVE_SIGNER`) | the USDG mint of the test cluster |
 * | `TEST_HELIUS_API_KEY` | unset | instead of `SOLANA_RPC_URL`/`SOLANA_WS_URL`: Helius' devnet URLs with this key (never printed) |
 * | `TEST_PROGRAM_SHA256S` | unset | comma-separated sha256 of program bytes accepted besides `target/deploy/agent_policy.so`'s |
 * | `LIVE_RPC_URL` | unset | set (or `LIVE_HELIUS_API_KEY`): the live environment exists and `svc_live_` keys reach it; unset, they are refused (`403 live_mode_unavailable`). Every `LIVE_` setting below is then required |
 * | `LIVE_WS_URL` | (with `LIVE_RPC_URL`) | PubSub URL of the live cluster |
 * | `LIVE_HELIUS_API_KEY` | unset | instead of `LIVE_RPC_URL`/`LIVE_WS_URL`: Helius' mainnet URLs with this key (never printed) |
 * | `LIVE_DATABASE_URL` | (required) | the live environment's own database (SQLite path or `postgres://...`), never the test one |
 * | `LIVE_PROGRAM_ID` | (required) | the agent-policy program on the live cluster |
 * | `LIVE_USDG_MINT` | (required) | the USDG mint on the live cluster |
 * | `LIVE_FEE_RESERVE_SIGNER` | (required) | the live fee reserve, a signer setting |
 * | `LIVE_REGISTRAR_SIGNER` | (required) | the live program config's registrar, a signer setting |
 * | `LIVE_PROGRAM_SHA256S` | unset | as `TEST_PROGRAM_SHA256S`, for the live program |
 * | `RESERVE_MIN_LAMPORTS` | 100000000 | each environment's fee reserve must hold at least this at start (0.1 SOL) |
 * | `RESERVE_WARN_LAMPORTS` | 1000000000 | while running, below this the reserve is low: a log warning and `cpay_fee_reserve_low 1` on the admin listener's `/metrics` (1 SOL, or `RESERVE_MIN_LAMPORTS` when that is higher and this is unset; never below it) |
 * | `X402_TEST_NETWORK_ALIASES` | unset | comma-separated x402 network ids (CAIP-2) the test environment's facilitator answers for besides its cluster's own, e.g. devnet's for a localnet standing in for it (x402-settings.ts) |
 * | `MAINNET_RPC_URL` | must be unset | not a setting: refused with a pointer to `LIVE_RPC_URL` |
 *
 * A signer setting is `file:/path/keypair.json` (Solana CLI format; refused when its group or others
 * may read it) or `exec:/path/program`, a KMS-style provider: `program pubkey` prints the address,
 * `program sign` reads the message bytes on stdin and writes the raw 64-byte signature on stdout
 * (signer-setting.ts; loaded by api/src/environments/load-signer.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { ConfigError, integerFromEnv } from "@cpay/ledger/config";
import { MAX_PROOF_WORKERS } from "@cpay/sdk/confidential";
import { generateMasterKeyHex, type MasterKey, parseMasterKey, parseMasterKeyList } from "../vault-crypto";
import { accountOpeningFeeFromEnv } from "./account-opening-fee-setting";
import { type DashboardSettings, dashboardSettingsFromEnv } from "./dashboard-settings";
import {
  type EnvironmentSettings,
  liveEnvironmentFromEnv,
  testEnvironmentFromEnv,
} from "./environment-settings";
import { type TrustProxy, trustProxyFromEnv } from "./trust-proxy";
import { type WebhookLimits, webhookLimitsFromEnv } from "./webhook-limits";
import { x402TestNetworkAliasesFromEnv } from "./x402-settings";

// Handed on for `@cpay/api/config`'s users; the API's own modules import them from the ledger, which
// shares them with the indexer.
export { ConfigError, integerFromEnv };

export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  /** The test environment's database (`environments.test.databaseUrl`). */
  readonly databaseUrl: string;
  readonly masterKey: MasterKey;
  /** Earlier master keys that still open (never seal) records: a rotation in progress. */
  readonly previousMasterKeys: readonly MasterKey[];
  /** Where the master key came from, for the start banner (never the key itself). */
  readonly masterKeySource: "environment" | "development file";
  readonly rateLimitPerMinute: number;
  /** Failed authentications per client address per minute before its failing credentials get 429. */
  readonly authFailureLimitPerMinute: number;
  /** `TRUST_PROXY`: the proxies believed about the client address (Express's `trust proxy`). */
  readonly trustProxy: TrustProxy;
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
  /** Lamports the fee reserve may lose per account (agents count to their owner) per UTC day. */
  readonly reserveDailyBudgetLamports: number;
  /**
   * `ACCOUNT_OPENING_FEE_USDG` in base units: what a sender pays when its transfer makes the reserve
   * open a token account someone outside the service could close for the rent.
   */
  readonly accountOpeningFeeUnits: bigint;
  /** Lamports of rent the fee reserve may have advanced per account and not yet got back. */
  readonly reserveAdvanceCapLamports: number;
  /** Worker threads of the SDK's proof pool (`PROOF_WORKERS`, default the available cores). */
  readonly proofWorkers: number;
  /** The dashboard's sign-in and sessions (api/src/dashboard-auth). */
  readonly dashboard: DashboardSettings;
  /** Each environment's database, cluster and keys; `live` null when svc_live_ keys are refused. */
  readonly environments: {
    readonly test: EnvironmentSettings;
    readonly live: EnvironmentSettings | null;
  };
  /** Whether the live environment is configured (else svc_live_ keys get 403 live_mode_unavailable). */
  readonly liveModeAvailable: boolean;
  /** x402 network ids the test environment's facilitator answers for besides its own (x402-settings.ts). */
  readonly x402TestNetworkAliases: readonly `solana:${string}`[];
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
  const test = testEnvironmentFromEnv(env, dataDir);
  const live = liveEnvironmentFromEnv(env);
  if (live !== null && live.databaseUrl === test.databaseUrl) {
    // One database for both would let a test key read live rows: the environments must not meet.
    throw new ConfigError("LIVE_DATABASE_URL must name another database than the test environment's");
  }
  const logLevel = env.LOG_LEVEL ?? "info";
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  }
  return {
    environments: { test, live },
    port: integerFromEnv(env, "PORT", 3000, 0, 65535),
    host: env.HOST ?? "127.0.0.1",
    databaseUrl: test.databaseUrl,
    masterKey,
    previousMasterKeys: previousMasterKeys.filter((key) => key.id !== masterKey.id),
    masterKeySource,
    rateLimitPerMinute: integerFromEnv(env, "RATE_LIMIT_PER_MINUTE", 600, 1, 1_000_000_000),
    authFailureLimitPerMinute: integerFromEnv(env, "AUTH_FAILURE_LIMIT_PER_MINUTE", 60, 1, 1_000_000_000),
    trustProxy: trustProxyFromEnv(env),
    logLevel,
    liveModeAvailable: live !== null,
    webhooksAllowLocal: env.WEBHOOKS_ALLOW_LOCAL === "1",
    webhooks: webhookLimitsFromEnv(env),
    dashboard: dashboardSettingsFromEnv(env),
    x402TestNetworkAliases: x402TestNetworkAliasesFromEnv(env),
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
    accountOpeningFeeUnits: accountOpeningFeeFromEnv(env),
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
    reserveAdvanceCapLamports: integerFromEnv(
      env,
      "RESERVE_ADVANCE_CAP_LAMPORTS",
      5_000_000_000,
      0,
      1_000_000_000_000,
    ),
  };
}
