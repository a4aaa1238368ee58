/**
 * Scale-out (DESIGN section 10): two API services on one PostgreSQL database and one cluster (in
 * process, or the localnet process over RPC with CPAY_TEST_CHAIN=rpc, each service its own connection), the
 * way two API processes share a deployment. What one process used to keep in memory is agreed in
 * the database (api/src/coordination): an account's transfers take turns across both, the rate
 * limit is one budget, a background job runs in one of them, and a holder that dies without
 * releasing is taken over once its lease lapses. Always on PostgreSQL (SQLite is one process per
 * file): DATABASE_URL when it is a PostgreSQL URL, else the cluster `scripts/postgres.sh` starts.
 */
import { randomBytes } from "node:crypto";
import {
  type AccountRow,
  createAccount,
  fundTestAccount,
  issueApiKey,
  type RunningService,
  startService,
  type UsdgFaucet,
} from "@cpay/api";
import { releaseLease, tryAcquireLease } from "@cpay/api/coordination";
import { newId } from "@cpay/ledger/ids";
import { type ApiClient, ApiRequestError, createApiClient } from "@cpay/sdk/api";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, postgresServerUrl } from "../support/api-database";
import { keysFromSecret } from "../support/holder-keys";
import { type IndexerBeside, startIndexerBeside } from "../support/indexer-beside";
import { jobPassRan } from "../support/job-passes";
import { startTestChain, type TestChain, testChainMode } from "../support/test-chain";
import { confidentialUsdgOn, publicUsdgOn } from "../support/usdg-balances";

const USDG = 1_000_000n;
const RATE_LIMIT = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Holder {
  readonly account: AccountRow;
  readonly secret: string;
  readonly key: string;
}

describe("two API services on one PostgreSQL database", () => {
  let testChain: TestChain | undefined;
  let indexer: IndexerBeside | undefined;
  const services: RunningService[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  let first: RunningService;
  let second: RunningService;

  beforeAll(async () => {
    const database = await createPostgresDatabase(postgresServerUrl());
    dropDatabase = database.drop;
    testChain = await startTestChain(testChainMode(), 50);
    const env = {
      PORT: "0",
      DATABASE_URL: database.url,
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      AUTH_FAILURE_LIMIT_PER_MINUTE: "100000",
      LOG_LEVEL: "silent",
    };
    // Sequentially: the first one migrates and initialises the program config.
    services.push(await startService({ env, connection: await (testChain as TestChain).connect() }));
    services.push(await startService({ env, connection: await (testChain as TestChain).connect() }));
    [first, second] = services as [RunningService, RunningService];
    // One indexer for the database, as production runs it: the one writer of `confirmed`.
    indexer = await startIndexerBeside({ service: first, openChain: (testChain as TestChain).openChain });
  });
  afterAll(async () => {
    await indexer?.close();
    await Promise.all(services.map((service) => service.close()));
    await testChain?.stop();
    await dropDatabase?.();
  });

  async function holder(handle: string): Promise<Holder> {
    const { account, confidentialSecret } = await createAccount(first.context, {
      handle,
      type: "personal",
      kycStatus: "verified",
    });
    const key = await issueApiKey(second.context, { accountId: account.id, name: "t", environment: "test" });
    return { account, secret: confidentialSecret, key: key.value };
  }
  const clientOf = (service: RunningService, who: Holder): ApiClient =>
    createApiClient({ baseUrl: service.url, apiKey: who.key });

  const publicBalance = (owner: string) => publicUsdgOn(first.context.chain, owner);
  const confidentialOf = (who: Holder) =>
    confidentialUsdgOn(first.context.chain, who.account.publicKey, keysFromSecret(who.secret));

  async function transferRow(id: string) {
    const { transfers } = first.context.db.tables;
    const [row] = await first.context.db.read((db) =>
      db.select().from(transfers).where(eq(transfers.id, id)),
    );
    if (row === undefined) throw new Error(`no transfer ${id}`);
    return row;
  }
  async function waitUntil(condition: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
    const started = Date.now();
    while (!(await condition())) {
      if (Date.now() - started > ms) throw new Error(`condition not reached: ${what}`);
      await sleep(25);
    }
  }

  it("Given one account's transfers sent at once through both services, Then each happens exactly once, in turn, with exact balances", async () => {
    const alice = await holder("alice");
    const bob = await holder("bob");
    await fundTestAccount(first.context, first.connection.testFaucet as UsdgFaucet, alice.account, {
      confidential: 10n * USDG,
      public: 4n * USDG,
    });
    const aliceBefore = (await confidentialOf(alice)).available;
    const bobPendingBefore = (await confidentialOf(bob)).pending;

    // When six public transfers of 1 USDG (4 USDG funded) and four confidential transfers of 1 USDG
    // are sent at the same time, alternately through the first and the second service
    const send = (i: number, confidential: boolean) =>
      clientOf(i % 2 === 0 ? first : second, alice)
        .call("createTransfer", {
          body: { to: "@bob", amount: "1", asset: "USDG", confidential },
          idempotencyKey: `scale-${confidential ? "c" : "p"}-${i}`,
        })
        .then(
          (transfer) => ({ ok: true as const, id: transfer.transfer_id }),
          (error: unknown) => {
            if (error instanceof ApiRequestError) return { ok: false as const, code: error.code };
            throw error;
          },
        );
    // (while a transfer of alice's is in flight elsewhere: the test holds her turn for a moment)
    const elsewhere = await tryAcquireLease(first.context.db, `account:${alice.account.id}`, 10_000);
    expect(elsewhere).not.toBeNull();
    let releasedAt = Number.POSITIVE_INFINITY;
    let firstAnswerAt = Number.POSITIVE_INFINITY;
    const sending = Promise.all(
      [
        ...Array.from({ length: 6 }, (_, i) => send(i, false)),
        ...Array.from({ length: 4 }, (_, i) => send(i, true)),
      ].map((answer) =>
        answer.finally(() => {
          firstAnswerAt = Math.min(firstAnswerAt, Date.now());
        }),
      ),
    );
    // ... until all ten requests are inside the services (each has claimed its idempotency key, which
    // comes before the turn), not for a fixed time a busy machine may not reach them in
    const { idempotencyKeys } = first.context.db.tables;
    await waitUntil(async () => {
      const claims = await first.context.db.read((db) =>
        db
          .select()
          .from(idempotencyKeys)
          .where(
            and(eq(idempotencyKeys.accountId, alice.account.id), eq(idempotencyKeys.state, "in_progress")),
          ),
      );
      return claims.length === 10;
    }, "all ten requests claimed their keys");
    releasedAt = Date.now();
    if (elsewhere !== null) await releaseLease(first.context.db, elsewhere);
    const answers = await sending;
    // Then no transfer ran while the other holder had the turn, in either service
    expect(firstAnswerAt).toBeGreaterThanOrEqual(releasedAt);
    const publicAnswers = answers.slice(0, 6);
    const confidentialAnswers = answers.slice(6);

    // And exactly four public transfers went through and two were refused before anything was
    // written (the balance check saw what the previous transfer left), and all four confidential
    // ones went through (each proof built on the balance the one before left)
    expect(publicAnswers.filter((answer) => answer.ok)).toHaveLength(4);
    expect(publicAnswers.filter((answer) => !answer.ok).map((answer) => !answer.ok && answer.code)).toEqual([
      "insufficient_balance",
      "insufficient_balance",
    ]);
    expect(confidentialAnswers.every((answer) => answer.ok)).toBe(true);
    const ids = answers.flatMap((answer) => (answer.ok ? [answer.id] : []));
    expect(new Set(ids).size).toBe(8);
    for (const id of ids) {
      await waitUntil(async () => (await transferRow(id)).status === "confirmed", `${id} confirmed`);
    }
    const { transfers } = first.context.db.tables;
    const rows = await first.context.db.read((db) =>
      db.select().from(transfers).where(eq(transfers.accountId, alice.account.id)),
    );
    expect(rows).toHaveLength(8);
    // (each row is written inside its turn, so none before the other holder let go)
    for (const row of rows) expect(Date.parse(row.createdAt)).toBeGreaterThanOrEqual(releasedAt);

    // And the balances moved by exactly that much
    expect(await publicBalance(alice.account.publicKey)).toBe(0n);
    expect(await publicBalance(bob.account.publicKey)).toBe(4n * USDG);
    expect((await confidentialOf(alice)).available).toBe(aliceBefore - 4n * USDG);
    expect((await confidentialOf(bob)).pending).toBe(bobPendingBefore + 4n * USDG);
  });

  it("Given one key used through both services, Then they spend one rate-limit budget with exact headers", async () => {
    const carol = await holder("carol");
    for (let i = 1; i <= RATE_LIMIT; i++) {
      const service = i % 2 === 0 ? first : second;
      const response = await fetch(new URL("/v1/transfers", service.url), {
        headers: { authorization: `Bearer ${carol.key}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe(String(RATE_LIMIT));
      expect(response.headers.get("ratelimit-remaining")).toBe(String(RATE_LIMIT - i));
    }
    for (const service of [first, second]) {
      const refused = await fetch(new URL("/v1/transfers", service.url), {
        headers: { authorization: `Bearer ${carol.key}` },
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("Given a crash-recovery item, Then it is judged once, not while its transfer's lease is live, and a dead job leader is taken over", async () => {
    const dave = await holder("dave");
    const { db } = first.context;
    const { transfers, leases, events } = db.tables;
    const id = newId("tr");
    const long = new Date(Date.now() - 10 * 60_000).toISOString();
    // Given a `submitting` row old enough to judge, whose transfer another (live) process is still
    // making (its lease lives until the test lets it lapse), and a settling job whose leader died
    // holding the lead
    await db.transaction(async (tx) => {
      await tx
        .insert(leases)
        .values({ name: `transfer:${id}`, holder: "live-process", expiresAt: Date.now() + 10 * 60_000 });
      await tx
        .insert(leases)
        .values({ name: "job:recover-submissions", holder: "dead-process", expiresAt: Date.now() + 500 })
        .onConflictDoUpdate({
          target: leases.name,
          set: { holder: "dead-process", expiresAt: Date.now() + 500 },
        });
      await tx.insert(transfers).values({
        id,
        accountId: dave.account.id,
        apiKeyId: null,
        fromHandle: dave.account.handle,
        to: "@alice",
        recipientAddress: dave.account.publicKey,
        asset: "USDG",
        confidential: false,
        status: "pending",
        phase: "submitting",
        createdAt: long,
      });
    });
    // Then nothing judges it while the transfer's lease is live: the dead leader's lapses, a live
    // service takes the job over and runs a whole pass over the row, and leaves it
    await jobPassRan(db, "recover-submissions");
    expect((await transferRow(id)).phase).toBe("submitting");
    // And once that lease lapses, the live service that took the job over judges it: nothing landed
    await db.read((q) =>
      q
        .update(leases)
        .set({ expiresAt: Date.now() - 1 })
        .where(eq(leases.name, `transfer:${id}`)),
    );
    await waitUntil(async () => (await transferRow(id)).status === "failed", "the planted row judged");
    expect((await transferRow(id)).failureCode).toBe("not_landed");
    const failedEvents = await db.read((q) =>
      q
        .select()
        .from(events)
        .where(and(eq(events.type, "transfer.failed"), eq(events.resourceId, id))),
    );
    expect(failedEvents).toHaveLength(1);
    const [lead] = await db.read((q) =>
      q.select().from(leases).where(eq(leases.name, "job:recover-submissions")),
    );
    expect(lead?.holder).not.toBe("dead-process");
  });

  it("Given an account turn left by a holder that died mid-transfer, Then the next transfer, through the other service, takes it over once it lapses", async () => {
    const erin = await holder("erin");
    await holder("frank");
    await fundTestAccount(first.context, first.connection.testFaucet as UsdgFaucet, erin.account, {
      confidential: 0n,
      public: 2n * USDG,
    });
    const { db } = first.context;
    await db.read((q) =>
      q.insert(db.tables.leases).values({
        name: `account:${erin.account.id}`,
        holder: "killed-process",
        expiresAt: Date.now() + 1_500,
      }),
    );
    const started = Date.now();
    const transfer = await clientOf(second, erin).call("createTransfer", {
      body: { to: "@frank", amount: "1", asset: "USDG", confidential: false },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
    expect(transfer.transfer_id).toMatch(/^tr_/);
    await waitUntil(
      async () => (await transferRow(transfer.transfer_id)).status === "confirmed",
      "the transfer after the takeover confirmed",
    );
    expect(await publicBalance(erin.account.publicKey)).toBe(1n * USDG);
  });
});
