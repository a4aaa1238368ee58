/**
 * What `POST /v1/transfers` refuses (spec 4.1 and 7, plus the documented extensions), and the two
 * reads (spec 4.2, 4.3): every refusal is a 4xx in the error envelope naming the field, quotes no
 * amount, and writes nothing; the list pages newest first with its filters; a key never sees
 * another account's transfer.
 */

import { signTransactionToWire } from "@cpay/localnet/cluster";
import { ApiRequestError } from "@cpay/sdk/api";
import { generateKeyPairSigner } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { eventually } from "../support/eventually";

describe("transfer refusals and reads", () => {
  const given = apiSuite({
    accounts: ["alice", "bob"],
    funds: { alice: { confidential: usdg(20), public: usdg(20) } },
  });

  async function count(table: "transfers" | "events" | "holds"): Promise<number> {
    const { db } = given.world.service.context;
    const [row] = await db.read((q) => q.select({ n: sql<number>`count(*)` }).from(db.tables[table]));
    return Number(row?.n);
  }

  async function post(key: string, body: unknown) {
    const response = await given.world.fetch("/v1/transfers", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      error: (JSON.parse(text) as { error?: Record<string, string> }).error,
    };
  }

  it.each([
    ["no recipient", { amount: "1" }, 400, "invalid_request", "to"],
    ["no amount", { to: "@bob" }, 400, "invalid_request", "amount"],
    ["an amount that is a number", { to: "@bob", amount: 1 }, 400, "invalid_request", "amount"],
    ["an amount that is not decimal", { to: "@bob", amount: "1e3" }, 400, "invalid_request", "amount"],
    ["a negative amount", { to: "@bob", amount: "-4.25" }, 400, "invalid_request", "amount"],
    ["seven decimals", { to: "@bob", amount: "4.2500001" }, 400, "invalid_request", "amount"],
    ["a zero amount", { to: "@bob", amount: "0.000000" }, 400, "invalid_request", "amount"],
    [
      "an amount above u64",
      { to: "@bob", amount: "99999999999999.999999" },
      400,
      "invalid_request",
      "amount",
    ],
    ["an unknown field", { to: "@bob", amount: "1", fee: "0" }, 400, "invalid_request", "fee"],
    ["a malformed handle", { to: "@bob smith", amount: "1" }, 400, "invalid_request", "to"],
    ["neither handle nor address", { to: "bob", amount: "1" }, 400, "invalid_request", "to"],
    ["a transfer to oneself", { to: "@ALICE", amount: "1" }, 400, "invalid_request", "to"],
    [
      "a memo over 200 bytes",
      { to: "@bob", amount: "1", memo: "é".repeat(101) },
      400,
      "invalid_request",
      "memo",
    ],
    ["another asset", { to: "@bob", amount: "1", asset: "SOL" }, 400, "unsupported_asset", "asset"],
    ["an unknown handle", { to: "@nobody", amount: "1" }, 404, "recipient_not_found", "to"],
    [
      "more than the confidential balance",
      { to: "@bob", amount: "20.000001" },
      402,
      "insufficient_balance",
      "amount",
    ],
    [
      "more than the public balance",
      { to: "@bob", amount: "25", confidential: false },
      402,
      "insufficient_balance",
      "amount",
    ],
  ] as const)(
    "refuses %s, naming the field, without writing anything",
    async (_case, body, status, code, param) => {
      // Given the rows before
      const before = [await count("transfers"), await count("events")];
      // When alice posts the request
      const answer = await post(given.alice.key.value, body);
      // Then it is refused with the code and the field, in the error envelope
      expect(answer.status, answer.text).toBe(status);
      expect(answer.error).toMatchObject({ code, param, request_id: expect.stringMatching(/^req_/) });
      // ... the message does not quote the amount
      const amount = (body as { amount?: unknown }).amount;
      if (typeof amount === "string" && amount.length > 1)
        expect(answer.error?.message).not.toContain(amount);
      // ... and nothing was written
      expect([await count("transfers"), await count("events")]).toEqual(before);
    },
  );

  it("accepts the asset in any case", async () => {
    const created = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "0.5", asset: "usdg", confidential: false },
    });
    expect(created.status).toMatch(/^(pending|confirmed)$/);
  });

  it("refuses an unverified account with kyc_required", async () => {
    // Given an account whose identity is not verified, holding funds
    const dave = await given.world.account("dave", { kyc: "pending" });
    await given.world.fund(dave.account, { public: usdg(5) });
    // When it sends
    const answer = await post(dave.key.value, { to: "@bob", amount: "1", confidential: false });
    // Then it is refused
    expect(answer.status).toBe(403);
    expect(answer.error?.code).toBe("kyc_required");
  });

  it("answers 422 for a recipient that cannot receive confidentially; confidential: false then succeeds", async () => {
    // Given a wallet with no token account at all
    const stranger = (await generateKeyPairSigner()).address;
    const before = await count("transfers");
    // When alice sends to it confidentially (the default)
    const refused = await post(given.alice.key.value, { to: stranger, amount: "2" });
    // Then the spec's 422 says how to proceed, and nothing was written
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: "recipient_not_confidential_ready", param: "to" });
    expect(refused.error?.message).toContain("confidential: false");
    expect(await count("transfers")).toBe(before);
    // When she retries as the message says
    const retried = await post(given.alice.key.value, { to: stranger, amount: "2", confidential: false });
    // Then it proceeds as a standard SPL transfer
    expect(retried.status, retried.text).toBe(201);
    expect(JSON.parse(retried.text)).toMatchObject({ confidential: false, to: stranger });
  });

  it("answers 503 chain_unavailable when the cluster refuses the transfer, records it failed, and a retry goes through", async () => {
    // Given a fee reserve that cannot pay (drained), and the counts before
    const { chain } = given.world;
    const reserve = given.world.service.context.feePayer;
    const lamports = (await chain.getAccount(reserve.address))?.lamports ?? 0n;
    const sink = (await generateKeyPairSigner()).address;
    const { wire } = await signTransactionToWire({
      feePayer: reserve,
      instructions: [
        getTransferSolInstruction({ source: reserve, destination: sink, amount: lamports - 5_000n }),
      ],
      blockhash: (await chain.getLatestBlockhash()).blockhash,
    });
    await chain.sendTransaction(wire, { preflight: true });
    const transfers = await count("transfers");
    try {
      // When alice sends, publicly and confidentially
      const answers = [
        await post(given.alice.key.value, { to: "@bob", amount: "1", confidential: false }),
        await post(given.alice.key.value, { to: "@bob", amount: "1" }),
      ];
      // Then both say nothing moved and she may retry
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.error?.code).toBe("chain_unavailable");
      }
      // ... both attempts are kept as failed transfers, announced with transfer.failed
      expect(await count("transfers")).toBe(transfers + 2);
      const failed = await given.alice.client.call("listTransfers", {
        query: { status: "failed", limit: 2 },
      });
      expect(failed.transfers).toHaveLength(2);
      const { db } = given.world.service.context;
      for (const transfer of failed.transfers) {
        expect(transfer.tx_signature).toBeNull();
        const events = await db.read((q) =>
          q.select().from(db.tables.events).where(eq(db.tables.events.resourceId, transfer.transfer_id)),
        );
        expect(events.map((event) => event.type)).toEqual(["transfer.failed"]);
      }
    } finally {
      await chain.requestAirdrop(reserve.address, lamports);
    }
    // When the reserve is funded again, the retry goes through
    const retried = await post(given.alice.key.value, { to: "@bob", amount: "1" });
    expect(retried.status, retried.text).toBe(201);
  });

  describe("reading transfers", () => {
    const created: string[] = [];
    beforeAll(async () => {
      // Five small public transfers from alice, one at a time so their creation times are ordered.
      for (let i = 0; i < 5; i++) {
        const transfer = await given.alice.client.call("createTransfer", {
          body: { to: "@bob", amount: `0.0${i + 1}`, confidential: false },
        });
        created.push(transfer.transfer_id);
      }
    });

    it("lists newest first, pages with limit and offset, and says whether more remain", async () => {
      // When alice lists two at a time
      const first = await given.alice.client.call("listTransfers", { query: { limit: 2 } });
      const second = await given.alice.client.call("listTransfers", { query: { limit: 2, offset: 2 } });
      // Then the pages are consecutive slices of the newest-first order
      const { total } = first;
      expect(total).toBeGreaterThanOrEqual(5);
      expect(first).toMatchObject({ limit: 2, offset: 0, has_more: true });
      expect(first.transfers.map((t) => t.transfer_id)).toEqual([created[4], created[3]]);
      expect(second.transfers.map((t) => t.transfer_id)).toEqual([created[2], created[1]]);
      for (const transfer of first.transfers) {
        expect(transfer).toMatchObject({ from: "@alice", to: "@bob", confidential: false, approval: null });
      }
      // ... the last page says there is no more
      const last = await given.alice.client.call("listTransfers", {
        query: { limit: 100, offset: total - 1 },
      });
      expect(last).toMatchObject({ has_more: false, total });
      expect(last.transfers).toHaveLength(1);
      // ... the default page is 20
      expect((await given.alice.client.call("listTransfers")).limit).toBe(20);
    });

    it("filters by status and by a creation-time window", async () => {
      // Given the five transfers settled
      await given.world.slots(3);
      await eventually(
        () => given.alice.client.call("listTransfers", { query: { status: "pending" } }),
        (pending) => pending.total === 0,
      );
      const all = await given.alice.client.call("listTransfers", { query: { limit: 100 } });
      const byId = new Map(all.transfers.map((t) => [t.transfer_id, t]));
      const oldest = byId.get(created[0] as string);
      const newest = byId.get(created[4] as string);
      if (oldest === undefined || newest === undefined) throw new Error("missing transfers");
      // When filtered by status
      const confirmed = await given.alice.client.call("listTransfers", {
        query: { status: "confirmed", limit: 100 },
      });
      // Then only confirmed ones, each with its confirmation time
      expect(confirmed.total).toBe(all.transfers.filter((t) => t.status === "confirmed").length);
      expect(confirmed.transfers.every((t) => t.status === "confirmed" && t.confirmed_at !== null)).toBe(
        true,
      );
      const failed = await given.alice.client.call("listTransfers", {
        query: { status: "failed", limit: 100 },
      });
      expect(failed.total).toBe(all.transfers.filter((t) => t.status === "failed").length);
      expect(failed.transfers.every((t) => t.status === "failed" && t.confirmed_at === null)).toBe(true);
      // When filtered by [oldest.created_at, newest.created_at): from is inclusive, to exclusive
      const window = await given.alice.client.call("listTransfers", {
        query: { from: oldest.created_at, to: newest.created_at, limit: 100 },
      });
      const ids = window.transfers.map((t) => t.transfer_id);
      expect(ids).toContain(created[0]);
      expect(ids).toContain(created[3]);
      expect(ids).not.toContain(created[4]);
      // ... and a timestamp without milliseconds compares as a time, not as text
      const wholeSecond = `${newest.created_at.slice(0, 19)}Z`;
      const untilWholeSecond = await given.alice.client.call("listTransfers", {
        query: { to: wholeSecond, limit: 100 },
      });
      expect(
        untilWholeSecond.transfers.every((t) => t.created_at < new Date(wholeSecond).toISOString()),
      ).toBe(true);
    });

    it.each([
      ["limit=101", "limit"],
      ["limit=0", "limit"],
      ["offset=-1", "offset"],
      ["status=settled", "status"],
      ["from=yesterday", "from"],
      ["from=2026-02-01T00:00:00.000Z&to=2026-01-01T00:00:00.000Z", "from"],
      ["sort=asc", "sort"],
    ])("refuses the query %s naming %s", async (search, param) => {
      const response = await given.world.fetch(`/v1/transfers?${search}`, { key: given.alice.key.value });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { param: string } }).error.param).toBe(param);
    });

    it("shows a transfer only to its sender and, once confirmed, its recipient", async () => {
      // Given a transfer of alice's to bob, and carol, who is neither
      const id = created[0] as string;
      const carol = await given.world.account("carol");
      const own = await given.alice.client.call("getTransfer", { params: { transfer_id: id } });
      expect(own).toMatchObject({ transfer_id: id, from: "@alice", direction: "sent" });
      // When carol asks for it, or lists
      const refused = await carol.client
        .call("getTransfer", { params: { transfer_id: id } })
        .catch((error: unknown) => error);
      const carols = await carol.client.call("listTransfers", { query: { limit: 100 } });
      // Then it does not exist for her, exactly like an id nobody issued
      expect(refused).toBeInstanceOf(ApiRequestError);
      expect(refused).toMatchObject({ status: 404, code: "transfer_not_found" });
      const unknown = await carol.client
        .call("getTransfer", { params: { transfer_id: "tr_aaaaaaaaaaaaaaaaaaaaaaaaaa" } })
        .catch((error: unknown) => error);
      expect(unknown).toMatchObject({ status: 404, code: "transfer_not_found" });
      expect(carols.transfers.map((t) => t.transfer_id)).not.toContain(id);
      // ... while bob, its recipient, sees it as received once it is confirmed
      await expect
        .poll(
          async () => (await given.alice.client.call("getTransfer", { params: { transfer_id: id } })).status,
          {
            timeout: 20_000,
          },
        )
        .toBe("confirmed");
      expect(await given.bob.client.call("getTransfer", { params: { transfer_id: id } })).toMatchObject({
        transfer_id: id,
        from: "@alice",
        direction: "received",
      });
    });
  });
});
