/**
 * Idempotency records on the real database (SQLite, or PostgreSQL under DATABASE_URL): twenty
 * concurrent duplicates run the use case once and all get its answer; a different request with
 * the same key is refused; a failed run releases the key; keys are per account; a resumable use
 * case's 5xx is not frozen (the retry resumes its resource); a waiting duplicate does not poll the
 * database every 50 ms; expired records are swept.
 */
import type { ServiceContext } from "@cpay/api";
import { runIdempotently, sweepExpiredIdempotencyKeys } from "@cpay/api/idempotency";
import { generateMasterKeyHex, type MasterKey, parseMasterKey } from "@cpay/api/vault-crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../support/api-database";

describe("Idempotency-Key records", () => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let service: ServiceContext;
  beforeAll(async () => {
    handle = await openTestDatabase();
    service = {
      db: handle.db,
      config: {
        masterKey: parseMasterKey(generateMasterKeyHex()),
        previousMasterKeys: [] as readonly MasterKey[],
        idempotencyLeaseMs: 30_000,
      },
    } as ServiceContext;
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("given 20 concurrent duplicates, runs the work once and every caller gets its answer", async () => {
    let runs = 0;
    const work = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { status: 201, body: { id: `made-${runs}` } };
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        runIdempotently(service, { accountId: "acct_1", key: "k-concurrent", fingerprint: "f1" }, work),
      ),
    );
    expect(runs).toBe(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body)))).toEqual(
      new Set(['{"id":"made-1"}']),
    );
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
  });

  it("refuses the same key with a different request, and keeps keys per account", async () => {
    const work = async () => ({ status: 201, body: { ok: true } });
    await runIdempotently(service, { accountId: "acct_1", key: "k-reuse", fingerprint: "f1" }, work);
    await expect(
      runIdempotently(service, { accountId: "acct_1", key: "k-reuse", fingerprint: "f2" }, work),
    ).rejects.toMatchObject({ code: "idempotency_key_reused", status: 409 });
    const other = await runIdempotently(
      service,
      { accountId: "acct_2", key: "k-reuse", fingerprint: "f2" },
      work,
    );
    expect(other.replayed).toBe(false);
  });

  it("releases the key when the work fails unexpectedly, so a retry runs", async () => {
    const failing = async (): Promise<{ status: number; body: unknown }> => {
      throw new Error("boom");
    };
    await expect(
      runIdempotently(service, { accountId: "acct_1", key: "k-fail", fingerprint: "f1" }, failing),
    ).rejects.toThrow("boom");
    const retried = await runIdempotently(
      service,
      { accountId: "acct_1", key: "k-fail", fingerprint: "f1" },
      async () => ({
        status: 201,
        body: { second: true },
      }),
    );
    expect(retried).toEqual({ status: 201, body: { second: true }, replayed: false });
  });

  it("records the bound resource before the answer exists", async () => {
    let seen: unknown;
    await runIdempotently(
      service,
      { accountId: "acct_1", key: "k-bind", fingerprint: "f1" },
      async (claim) => {
        await claim.bindResource("tr_bound");
        const { idempotencyKeys } = handle.db.tables;
        seen = await handle.db.read((db) => db.select().from(idempotencyKeys));
        return { status: 201, body: {} };
      },
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "k-bind", resourceId: "tr_bound", state: "in_progress" }),
      ]),
    );
  });

  it("keeps the key once a resource was bound, even when the request then fails unexpectedly", async () => {
    let runs = 0;
    const failsAfterBinding = async (claim: { bindResource(id: string): Promise<void> }) => {
      runs += 1;
      await claim.bindResource("tr_maybe_moved");
      throw new Error("lost the cluster's answer");
    };
    const input = { accountId: "acct_1", key: "k-bound-fail", fingerprint: "f1" };
    await expect(runIdempotently(service, input, failsAfterBinding)).rejects.toThrow("lost");
    const retry = await runIdempotently(service, input, failsAfterBinding);
    expect(runs).toBe(1);
    expect(retry).toMatchObject({ status: 500, replayed: true, body: { error: { code: "internal_error" } } });
  });

  it("Given a binding written in the same database transaction as its resource's row, When that transaction rolls back, Then neither is kept and the retry runs the use case afresh", async () => {
    const input = { accountId: "acct_1", key: "k-bound-in-tx", fingerprint: "f1" };
    let runs = 0;
    await expect(
      runIdempotently(service, input, async (claim) => {
        runs += 1;
        await service.db.transaction(async (tx) => {
          await claim.bindResourceIn(tx, "tr_rolled_back");
          throw new Error("the row's insert failed");
        });
        return { status: 201, body: {} };
      }),
    ).rejects.toThrow("insert failed");
    const retry = await runIdempotently(service, input, async (claim) => {
      runs += 1;
      await service.db.transaction((tx) => claim.bindResourceIn(tx, "tr_made"));
      return { status: 201, body: { transfer_id: "tr_made" } };
    });
    expect(runs).toBe(2);
    expect(retry).toEqual({ status: 201, body: { transfer_id: "tr_made" }, replayed: false });
  });

  it("Given a resumable use case that failed (5xx) after binding, When retried with the key, Then it resumes the resource instead of replaying the 503", async () => {
    const input = { accountId: "acct_1", key: "k-resumable", fingerprint: "f1" };
    const seen: (string | null)[] = [];
    await expect(
      runIdempotently(service, input, async (claim) => {
        seen.push(claim.resumedResourceId);
        await claim.bindResource("acct_agent", { resumable: true });
        throw new Error("the setup did not land");
      }),
    ).rejects.toThrow("did not land");
    const retry = await runIdempotently(service, input, async (claim) => {
      seen.push(claim.resumedResourceId);
      return { status: 201, body: { account_id: claim.resumedResourceId } };
    });
    expect(seen).toEqual([null, "acct_agent"]);
    expect(retry).toEqual({ status: 201, body: { account_id: "acct_agent" }, replayed: false });
  });

  it("Given a duplicate waiting 2 s for the first request, Then it reads the record a few times, not every 50 ms", async () => {
    let reads = 0;
    const counting = {
      ...service,
      db: {
        ...service.db,
        read: ((work) => {
          reads += 1;
          return service.db.read(work);
        }) as typeof service.db.read,
      },
    } as ServiceContext;
    const input = { accountId: "acct_1", key: "k-slow", fingerprint: "f1" };
    // The duplicate comes once the first has claimed the key and runs (not after a fixed 50 ms a
    // busy machine may not have claimed it in)
    let running: () => void = () => {};
    const claimed = new Promise<void>((resolve) => {
      running = resolve;
    });
    const first = runIdempotently(service, input, async () => {
      running();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return { status: 201, body: { slow: true } };
    });
    await claimed;
    const duplicate = await runIdempotently(counting, input, async () => ({ status: 201, body: {} }));
    await first;
    expect(duplicate).toEqual({ status: 201, body: { slow: true }, replayed: true });
    expect(reads).toBeLessThanOrEqual(8);
  });

  it("Given records past their 24 h, When the sweep runs, Then they are deleted and fresh ones stay", async () => {
    const { idempotencyKeys } = handle.db.tables;
    const past = new Date(Date.now() - 1_000).toISOString();
    await handle.db.transaction((tx) =>
      tx
        .insert(idempotencyKeys)
        .values({
          accountId: "acct_old",
          key: "k-expired",
          requestHash: "f1",
          state: "completed",
          createdAt: past,
          expiresAt: past,
        })
        .then(() => undefined),
    );
    await runIdempotently(
      service,
      { accountId: "acct_old", key: "k-fresh", fingerprint: "f1" },
      async () => ({
        status: 201,
        body: {},
      }),
    );
    expect(await sweepExpiredIdempotencyKeys(service)).toBeGreaterThanOrEqual(1);
    const left = await handle.db.read((db) =>
      db.select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, "acct_old")),
    );
    expect(left.map((row) => row.key)).toEqual(["k-fresh"]);
  });

  /** acct_1's claim of `key`, bound to `resourceId`, whose holder died: its lease ran out at `past`. */
  const abandonedClaim = (key: string, resourceId: string, past: string) => ({
    accountId: "acct_1",
    key,
    requestHash: "f1",
    state: "in_progress" as const,
    resourceId,
    createdAt: past,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    leaseExpiresAt: past,
  });

  /** Retries acct_1's `key` with a use case answering 201 `body`: the resource it resumed, and the answer. */
  async function retryAnswering(key: string, body: Record<string, unknown>) {
    const resumed: (string | null)[] = [];
    const answer = await runIdempotently(
      service,
      { accountId: "acct_1", key, fingerprint: "f1" },
      async (claim) => {
        resumed.push(claim.resumedResourceId);
        return { status: 201, body };
      },
    );
    return { resumed, answer };
  }

  it("Given an abandoned claim bound to a webhook whose secret was never shown, When retried, Then that subscription is discarded and the request runs afresh", async () => {
    const { idempotencyKeys, webhookSubscriptions, vaultSecrets } = handle.db.tables;
    const past = new Date(Date.now() - 60_000).toISOString();
    await handle.db.transaction(async (tx) => {
      await tx.insert(webhookSubscriptions).values({
        id: "wh_orphan",
        accountId: "acct_1",
        url: "https://example.com/hooks",
        events: "[]",
        createdAt: past,
        deletedAt: null,
      });
      await tx
        .insert(vaultSecrets)
        .values({ accountId: "wh_orphan", kind: "webhook_secret", keyId: "k", sealed: "x", createdAt: past });
      await tx.insert(idempotencyKeys).values(abandonedClaim("k-orphan-webhook", "wh_orphan", past));
    });
    const { resumed, answer } = await retryAnswering("k-orphan-webhook", { webhook_id: "wh_fresh" });
    expect(resumed).toEqual([null]);
    expect(answer).toEqual({ status: 201, body: { webhook_id: "wh_fresh" }, replayed: false });
    const [orphan] = await handle.db.read((db) =>
      db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, "wh_orphan")),
    );
    expect(orphan?.deletedAt).not.toBeNull();
    const secrets = await handle.db.read((db) =>
      db.select().from(vaultSecrets).where(eq(vaultSecrets.accountId, "wh_orphan")),
    );
    expect(secrets).toEqual([]);
  });

  it("Given an abandoned claim bound to an API key whose value was never shown, When retried, Then that key is deleted and the request runs afresh", async () => {
    const { idempotencyKeys, apiKeys } = handle.db.tables;
    const past = new Date(Date.now() - 60_000).toISOString();
    await handle.db.transaction(async (tx) => {
      await tx.insert(apiKeys).values({
        id: "key_orphan",
        accountId: "acct_1",
        name: "deploy",
        environment: "test",
        keyHash: "h-orphan",
        last4: "abcd",
        createdAt: past,
      });
      await tx.insert(idempotencyKeys).values(abandonedClaim("k-orphan-key", "key_orphan", past));
    });
    const { resumed, answer } = await retryAnswering("k-orphan-key", { key: { id: "key_fresh" } });
    expect(resumed).toEqual([null]);
    expect(answer).toEqual({ status: 201, body: { key: { id: "key_fresh" } }, replayed: false });
    const left = await handle.db.read((db) => db.select().from(apiKeys).where(eq(apiKeys.id, "key_orphan")));
    expect(left).toEqual([]);
  });
});
