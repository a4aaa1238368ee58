/**
 * An API world for the `/v1` suites: the service started in process on a free port against an
 * embedded cluster (fast 50 ms slots, so `pending -> confirmed` is real and quick), on SQLite in a
 * temporary directory or, when DATABASE_URL is a PostgreSQL URL, on a fresh database of that
 * server (dropped at close) — the same suites run on both (scripts/test.sh). Every log line is
 * captured for the plaintext canary.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import {
  type AccountRow,
  type AgentTransactionRow,
  createAccount,
  fundTestAccount,
  type IssuedKey,
  issueApiKey,
  type KycStatus,
  type RunningService,
  startService,
  type TransferRow,
} from "@cpay/api";
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { type ApiClient, ApiRequestError, createApiClient } from "@cpay/sdk/api";
import type { ChainPort } from "@cpay/sdk/chain";
import { eq } from "drizzle-orm";
import { freshDatabaseUrl } from "./api-database";
import { inProcessConnection } from "./in-process-connection";

export interface WorldAccount {
  readonly account: AccountRow;
  readonly key: IssuedKey;
  /** The account's confidential secret (SDK export format), as handed to its holder. */
  readonly confidentialSecret: string;
  readonly client: ApiClient;
}

export interface ApiWorld {
  readonly service: RunningService;
  /** The simulator itself: for the suites' own assertions and clock moves. */
  readonly cluster: EmbeddedCluster;
  /** The service's chain port (one per world): what SDK flows in a suite go through. */
  readonly chain: ChainPort;
  readonly url: string;
  /** Every log line the service wrote, raw. */
  readonly logs: string[];
  readonly dialect: "sqlite" | "postgres";
  /** A personal/business account with a test key (KYC verified unless given). */
  account(
    handle: string,
    options?: { kyc?: KycStatus; type?: "personal" | "business" },
  ): Promise<WorldAccount>;
  /** Mints USDG (base units) into an account: confidential and public parts. */
  fund(account: AccountRow, amounts: { confidential?: bigint; public?: bigint }): Promise<void>;
  /** An account's row as stored (e.g. an agent made through the API). */
  accountRow(accountId: string): Promise<AccountRow>;
  /** A transfer's row as stored. */
  transferRow(transferId: string): Promise<TransferRow>;
  /** A held agent transaction's row as stored. */
  agentTransactionRow(transactionId: string): Promise<AgentTransactionRow>;
  /** A test key for any account (e.g. an agent's own key). */
  keyFor(accountId: string): Promise<string>;
  /** A client for any key value (or none). */
  clientFor(apiKey: string): ApiClient;
  /** Raw HTTP, for what the typed client would refuse to send. */
  fetch(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** Waits until the cluster has produced `slots` more slots (confirmations, settlement). */
  slots(count?: number): Promise<void>;
  close(): Promise<void>;
}

/** What `promise` was refused with; fails the test when it resolved or threw anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<ApiRequestError> {
  const caught = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(caught instanceof ApiRequestError)) throw new Error(`expected an API refusal, got ${String(caught)}`);
  return caught;
}

export const UNITS_PER_USDG = 1_000_000n;
export const usdg = (whole: number | bigint): bigint => BigInt(whole) * UNITS_PER_USDG;

export async function startApiWorld(
  options: { slotMs?: number; env?: Record<string, string>; clock?: () => number } = {},
): Promise<ApiWorld> {
  const cluster = await createEmbeddedCluster({ slotMs: options.slotMs ?? 50 });
  const dataDir = mkdtempSync(join(tmpdir(), "cpay-api-"));
  const database = await freshDatabaseUrl(dataDir);
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(
        ...String(chunk)
          .split("\n")
          .filter((line) => line !== ""),
      );
      callback();
    },
  });
  const service = await startService({
    env: {
      PORT: "0",
      DATABASE_URL: database.url,
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      RATE_LIMIT_PER_MINUTE: "100000",
      // Every test client is 127.0.0.1: suites that send bad keys on purpose must not share a budget.
      AUTH_FAILURE_LIMIT_PER_MINUTE: "100000",
      LOG_LEVEL: "info",
      ...options.env,
    },
    dataDir,
    connection: await inProcessConnection(cluster),
    logDestination: logDestination as never,
    checkResponses: true,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const clientFor = (apiKey: string) => createApiClient({ baseUrl: service.url, apiKey });
  return {
    service,
    cluster,
    chain: service.context.chain,
    url: service.url,
    logs,
    dialect: service.context.db.dialect,
    async account(handle, accountOptions = {}) {
      const { account, confidentialSecret } = await createAccount(service.context, {
        handle,
        type: accountOptions.type ?? "personal",
        kycStatus: accountOptions.kyc ?? "verified",
      });
      const key = await issueApiKey(service.context, {
        accountId: account.id,
        name: "test",
        environment: "test",
      });
      return { account, key, confidentialSecret, client: clientFor(key.value) };
    },
    fund: (account, amounts) =>
      fundTestAccount(service.context, cluster, account, {
        confidential: amounts.confidential ?? 0n,
        public: amounts.public ?? 0n,
      }),
    async accountRow(accountId) {
      const { accounts } = service.context.db.tables;
      const [row] = await service.context.db.read((db) =>
        db.select().from(accounts).where(eq(accounts.id, accountId)),
      );
      if (row === undefined) throw new Error(`no account ${accountId}`);
      return row;
    },
    async transferRow(transferId) {
      const { transfers } = service.context.db.tables;
      const [row] = await service.context.db.read((db) =>
        db.select().from(transfers).where(eq(transfers.id, transferId)),
      );
      if (row === undefined) throw new Error(`no transfer ${transferId}`);
      return row;
    },
    async agentTransactionRow(transactionId) {
      const { agentTransactions } = service.context.db.tables;
      const [row] = await service.context.db.read((db) =>
        db.select().from(agentTransactions).where(eq(agentTransactions.id, transactionId)),
      );
      if (row === undefined) throw new Error(`no agent transaction ${transactionId}`);
      return row;
    },
    async keyFor(accountId) {
      return (await issueApiKey(service.context, { accountId, name: "test", environment: "test" })).value;
    },
    clientFor,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key !== undefined) headers.set("authorization", `Bearer ${init.key}`);
      return fetch(new URL(path, service.url), { ...init, headers });
    },
    async slots(count = 2) {
      const target = cluster.getSlot() + BigInt(count);
      while (cluster.getSlot() < target) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    async close() {
      await service.close();
      cluster.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
