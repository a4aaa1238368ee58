/**
 * Idempotency records on the real database (SQLite, or PostgreSQL under DATABASE_URL): twenty
 * concurrent duplicates run the use case once and all get its answer; a different request with
 * the same key is refused; a failed run releases the key; keys are per account.
 */
import type { ServiceContext } from "@cpay/api";
import { runIdempotently } from "@cpay/api/idempotency";
import { generateMasterKeyHex, parseMasterKey } from "@cpay/api/vault-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../support/api-database";

describe("Idempotency-Key records", () => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let service: ServiceContext;
  beforeAll(async () => {
    handle = await openTestDatabase();
    service = {
      db: handle.db,
      config: { masterKey: parseMasterKey(generateMasterKeyHex()), idempotencyLeaseMs: 30_000 },
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
});
