/**
 * `Idempotency-Key` on POST /v1/transfers, end to end: twenty concurrent duplicates of one
 * confidential transfer make exactly one transfer (one row, one on-chain movement) and all twenty
 * callers get the same answer; a later identical request replays it; the same key with another
 * body is 409 `idempotency_key_reused`; a malformed key is 400; the same request written with
 * another letter case or a trailing slash (Express routes it the same) replays.
 */
import { findTokenAccount } from "@cpay/sdk/confidential";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { confidentialStateOn } from "../support/confidential-state";
import { postWithIdempotencyKey } from "./support/idempotent-post";

describe("idempotent transfers", () => {
  const given = apiSuite({ accounts: ["alice", "bob"], funds: { alice: { confidential: usdg(100) } } });

  const post = (key: string, body: unknown, path = "/v1/transfers") =>
    postWithIdempotencyKey(given.world, { apiKey: given.alice.key.value, path, key, body });

  it("given 20 concurrent duplicates, makes one transfer and answers all 20 with it", async () => {
    const bobAccount = await findTokenAccount(given.bob.account.publicKey, given.world.chain.usdgMint);
    const creditsBefore = (await confidentialStateOn(given.world.chain, bobAccount))
      ?.pendingBalanceCreditCounter;
    const body = { to: "@bob", amount: "2.5" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post("pay-bob-once", body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((answer) => (answer.body as { transfer_id: string }).transfer_id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === "true")).toHaveLength(19);

    const { transfers } = given.world.service.context.db.tables;
    const rows = await given.world.service.context.db.read((db) =>
      db.select().from(transfers).where(eq(transfers.accountId, given.alice.account.id)),
    );
    expect(rows).toHaveLength(1);
    // One credit reached bob's confidential account: the funds moved once.
    expect((await confidentialStateOn(given.world.chain, bobAccount))?.pendingBalanceCreditCounter).toBe(
      (creditsBefore ?? 0n) + 1n,
    );

    const replay = await post("pay-bob-once", body);
    expect(replay.status).toBe(201);
    expect(replay.replayed).toBe("true");
    expect((replay.body as { transfer_id: string }).transfer_id).toBe([...ids][0]);
  });

  it("refuses the same key with a different body, and a malformed key", async () => {
    const first = await post("key-reused", { to: "@bob", amount: "1" });
    expect(first.status).toBe(201);
    const reused = await post("key-reused", { to: "@bob", amount: "2" });
    expect(reused.status).toBe(409);
    expect((reused.body as { error: { code: string } }).error.code).toBe("idempotency_key_reused");
    const malformed = await post("has spaces in it", { to: "@bob", amount: "1" });
    expect(malformed.status).toBe(400);
    expect((malformed.body as { error: { param: string } }).error.param).toBe("idempotency-key");
  });

  it("Given a transfer made with a key, When the same request comes as /V1/Transfers/, Then it replays", async () => {
    const body = { to: "@bob", amount: "0.5" };
    const first = await post("path-variants", body);
    expect(first.status).toBe(201);
    for (const path of ["/V1/Transfers/", "/v1/transfers/", "/v1/TRANSFERS"]) {
      const again = await post("path-variants", body, path);
      expect(again.status, path).toBe(201);
      expect(again.replayed).toBe("true");
      expect((again.body as { transfer_id: string }).transfer_id).toBe(
        (first.body as { transfer_id: string }).transfer_id,
      );
    }
  });
});
