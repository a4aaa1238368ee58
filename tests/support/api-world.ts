/**
 * An API world for the `/v1` suites: the service started in process on a free port against a chain
 * with fast 50 ms slots (so `pending -> confirmed` is real and quick): an embedded cluster in the
 * suite's process by default, or, with CPAY_TEST_CHAIN=rpc, the localnet as its own process (one per
 * world) reached over JSON-RPC + PubSub exactly as a validator. Suites read the chain through
 * `chain` and move its clock through `testClock` in both modes; `cluster` (the simulator itself) is
 * there only for the in-process benches. The indexer runs beside the
 * service (indexer-beside.ts): it is the one writer of `confirmed`. On SQLite in a
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
  createAccount,
  fundTestAccount,
  type HoldRow,
  type IssuedKey,
  issueApiKey,
  type KycStatus,
  type RunningService,
  startService,
  type TransferRow,
  type UsdgFaucet,
} from "@cpay/api";
import type { RunningIndexer } from "@cpay/indexer";
import type { Database, Db } from "@cpay/ledger/database";
import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import { type ApiClient, ApiRequestError, createApiClient } from "@cpay/sdk/api";
import type { ChainPort } from "@cpay/sdk/chain";
import { eq } from "drizzle-orm";
import { freshDatabaseUrl } from "./api-database";
import { type IndexerBeside, startIndexerBeside } from "./indexer-beside";
import type { LocalnetProcess } from "./localnet-process";
import type { LocalnetTestClient } from "./localnet-test-client";
import { reserveSettled } from "./reserve-settled";
import { startTestChain, type TestChainMode, type TestChainOptions, testChainMode } from "./test-chain";
import { UNITS_PER_USDG, usdg } from "./usdg-units";

export { type TestChainMode, testChainMode } from "./test-chain";

export interface WorldAccount {
  readonly account: AccountRow;
  readonly key: IssuedKey;
  /** The account's confidential secret (SDK export format), as handed to its holder. */
  readonly confidentialSecret: string;
  readonly client: ApiClient;
}

export interface ApiWorld {
  readonly service: RunningService;
  readonly mode: TestChainMode;
  /**
   * The simulator itself, in process only (the in-process benches use it); in rpc mode reading it
   * throws. Suites read through `chain` and move time through `testClock` instead, in both modes.
   */
  readonly cluster: EmbeddedCluster;
  /** Clock moves of the test cluster (the simulator's, or the localnet process's localnet_* methods). */
  readonly testClock: LocalnetTestClient;
  /** Mints USDG into an owner's associated token account (the test cluster's mint authority). */
  readonly faucet: UsdgFaucet;
  /** The localnet process in rpc mode (null in process). */
  readonly localnet: LocalnetProcess | null;
  /** A new chain port of its own onto the world's chain (e.g. an indexer's); the caller closes it. */
  openChain(): Promise<ChainPort>;
  /** The service's chain port (one per world): what SDK flows in a suite go through. */
  readonly chain: ChainPort;
  readonly url: string;
  /** Every log line the service wrote, raw. */
  readonly logs: string[];
  readonly dialect: "sqlite" | "postgres";
  /** The indexer running beside the service (null for a world started with `indexer: false`). */
  readonly indexer: RunningIndexer | null;
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
  /** A hold's row as stored. */
  holdRow(transactionId: string): Promise<HoldRow>;
  /** A test key for any account (e.g. an agent's own key). */
  keyFor(accountId: string): Promise<string>;
  /** A client for any key value (or none). */
  clientFor(apiKey: string): ApiClient;
  /** Raw HTTP, for what the typed client would refuse to send. */
  fetch(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** Waits until the cluster has produced `slots` more slots (confirmations, settlement). */
  slots(count?: number): Promise<void>;
  /** Waits until every fee reserve spend so far is settled to what it cost (reserve-settled.ts). */
  reserveSettled(timeoutMs?: number): Promise<void>;
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

export { UNITS_PER_USDG, usdg };

/** How a world starts (every field optional: 50 ms slots, the indexer beside, CPAY_TEST_CHAIN's chain). */
export interface ApiWorldOptions {
  slotMs?: number;
  env?: Record<string, string>;
  clock?: () => number;
  /** false: no indexer beside the service (the suite runs its own); nothing confirms without one. */
  indexer?: boolean;
  /** How the chain's USDG mint treats confidential accounts (default: auto-approve, no auditor). */
  usdgMint?: TestChainOptions["usdgMint"];
  /** Also start the admin listener (`service.admin`; give ADMIN_PORT and ADMIN_TOKEN in `env`). */
  admin?: boolean;
  /**
   * Where the chain runs, whatever CPAY_TEST_CHAIN says: `rpc` for a suite whose other processes
   * (an agent's own, started by the suite) must reach it over JSON-RPC. Default: CPAY_TEST_CHAIN.
   */
  chain?: TestChainMode;
}

export async function startApiWorld(options: ApiWorldOptions = {}): Promise<ApiWorld> {
  const mode: TestChainMode = options.chain ?? testChainMode();
  const chainSide = await startTestChain(mode, options.slotMs ?? 50, { usdgMint: options.usdgMint });
  const connection = await chainSide.connect().catch(async (error: unknown) => {
    await chainSide.stop();
    throw error;
  });
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
  let service: RunningService;
  try {
    service = await startService({
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
      connection,
      logDestination: logDestination as never,
      checkResponses: true,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.admin === true ? { admin: true } : {}),
    });
  } catch (error) {
    // No child may outlive a world that failed to start.
    await connection.close().catch(() => undefined);
    await chainSide.stop();
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let worldIndexer: IndexerBeside | null = null;
  if (options.indexer !== false) {
    try {
      worldIndexer = await startIndexerBeside({ service, openChain: chainSide.openChain, logDestination });
    } catch (error) {
      await service.close();
      await chainSide.stop();
      await database.drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const faucet = connection.testFaucet;
  if (faucet === null) throw new Error("the test chain has no USDG faucet");
  const clientFor = (apiKey: string) => createApiClient({ baseUrl: service.url, apiKey });
  /** The one row `select` reads (by id); throws naming `what` when there is none. */
  const theRow = async <Row>(
    what: string,
    select: (db: Db, tables: Database["tables"]) => Promise<Row[]>,
  ): Promise<Row> => {
    const [row] = await service.context.db.read((db) => select(db, service.context.db.tables));
    if (row === undefined) throw new Error(`no ${what}`);
    return row;
  };
  return {
    service,
    mode,
    get cluster(): EmbeddedCluster {
      if (chainSide.cluster === null) {
        throw new Error(
          "this world's chain is the localnet process: read it through world.chain and move it through world.testClock",
        );
      }
      return chainSide.cluster;
    },
    testClock: chainSide.testClock,
    faucet,
    localnet: chainSide.localnet,
    openChain: chainSide.openChain,
    chain: service.context.chain,
    url: service.url,
    logs,
    dialect: service.context.db.dialect,
    indexer: worldIndexer?.indexer ?? null,
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
      fundTestAccount(service.context, faucet, account, {
        confidential: amounts.confidential ?? 0n,
        public: amounts.public ?? 0n,
      }),
    accountRow: (accountId) =>
      theRow(`account ${accountId}`, (db, { accounts }) =>
        db.select().from(accounts).where(eq(accounts.id, accountId)),
      ),
    transferRow: (transferId) =>
      theRow(`transfer ${transferId}`, (db, { transfers }) =>
        db.select().from(transfers).where(eq(transfers.id, transferId)),
      ),
    holdRow: (transactionId) =>
      theRow(`hold ${transactionId}`, (db, { holds }) =>
        db.select().from(holds).where(eq(holds.id, transactionId)),
      ),
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
      const chain = service.context.chain;
      const target = (await chain.getSlot("processed")) + BigInt(count);
      while ((await chain.getSlot("processed")) < target)
        await new Promise((resolve) => setTimeout(resolve, 10));
    },
    reserveSettled(timeoutMs) {
      return reserveSettled(service.context, timeoutMs);
    },
    async close() {
      await worldIndexer?.close();
      await service.close();
      await chainSide.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
