import { insertSubmittingTransfer, markFailed } from "@cpay/ledger";
import { newId } from "@cpay/ledger/ids";
import { ApiRequestError, type TTransferDetail } from "@cpay/sdk/api";
import {
  availableBalance,
  decryptEncryptedTotal,
  decryptPendingBalance,
  encryptedTotalFromBase64,
  findTokenAccount,
  isConfidentialError,
  readTransferMemo,
} from "@cpay/sdk/confidential";
import {
  deriveViewingKeys,
  importAccountSecret,
  isSealedError,
  openTransferDetails,
  type ViewingKeys,
} from "@cpay/sdk/sealed";
import { generateKeyPairSigner } from "@solana/kit";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg, type WorldAccount } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { confidentialStateOn } from "../support/confidential-state";
import { eventually } from "../support/eventually";
import { keysFromSecret } from "../support/holder-keys";
import { publicUsdgOn } from "../support/usdg-balances";

describe("transfers from a personal account", () => {
  const given = apiSuite({
    accounts: ["alice", "bob", "carol"],
    funds: { alice: { confidential: usdg(100), public: usdg(10) } },
  });

  const keysOf = (holder: WorldAccount) => keysFromSecret(holder.confidentialSecret);

  async function confidentialState(holder: WorldAccount) {
    const state = await confidentialStateOn(
      given.world.chain,
      await findTokenAccount(holder.account.publicKey, given.world.chain.usdgMint),
    );
    if (state === null) throw new Error(`${holder.account.handle} has no confidential account`);
    return state;
  }

  const viewingKeysOf = (holder: WorldAccount): ViewingKeys =>
    deriveViewingKeys(importAccountSecret(holder.confidentialSecret));

  /** A row of carol's paying `recipient` that never got further than `submitting` (its id). */
  async function unconfirmedTo(recipient: WorldAccount): Promise<string> {
    const id = newId("tr");
    await insertSubmittingTransfer(given.world.service.context, {
      id,
      accountId: given.carol.account.id,
      apiKeyId: given.carol.key.id,
      fromHandle: given.carol.account.handle,
      to: recipient.account.handle,
      recipientAddress: recipient.account.publicKey,
      asset: "USDG",
      confidential: false,
      usageIncrement: null,
      sealedDetails: null,
      createdAt: new Date().toISOString(),
    });
    return id;
  }

  const publicBalance = (owner: string) => publicUsdgOn(given.world.chain, owner);

  function settled(holder: WorldAccount, transferId: string): Promise<TTransferDetail> {
    return eventually(
      () => holder.client.call("getTransfer", { params: { transfer_id: transferId } }),
      (transfer) => transfer.status !== "pending",
    );
  }

  /** Every text column of every table, as one string: where a leaked amount or memo would show. */
  async function everythingStored(): Promise<string> {
    const { db } = given.world.service.context;
    const dumps: unknown[] = [];
    for (const table of Object.values(db.tables)) dumps.push(await db.read((q) => q.select().from(table)));
    return JSON.stringify(dumps);
  }

  it("moves exactly the amount confidentially, settles, and only the parties read the memo", async () => {
    // Given alice's and bob's balances, decrypted with their own keys
    const memo = "invoice 7731: cedar planks";
    const amount = 12_345_678n;
    const aliceBefore = availableBalance(await confidentialState(given.alice), keysOf(given.alice));
    const bobBefore = decryptPendingBalance(await confidentialState(given.bob), keysOf(given.bob));

    // When alice sends 12.345678 USDG to @bob with a memo
    const created = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "12.345678", memo },
    });

    // Then the transfer is accepted, confidential by default, without any amount in the answer
    expect(created).toMatchObject({ to: "@bob", confidential: true, approval: null });
    expect(["pending", "confirmed"]).toContain(created.status);
    expect(Object.keys(created).sort()).toEqual(
      [
        "approval",
        "confidential",
        "created_at",
        "fees",
        "status",
        "to",
        "transfer_id",
        "tx_signature",
      ].sort(),
    );
    // ... and a confidential transfer never opens an account, so it charges no fee
    expect(created.fees).toEqual({ account_opening: "0" });
    // ... it settles within a few slots, with its confirmation time
    const detail = await settled(given.alice, created.transfer_id);
    expect(detail).toMatchObject({
      status: "confirmed",
      from: "@alice",
      to: "@bob",
      tx_signature: created.tx_signature,
    });
    expect(Date.parse(detail.confirmed_at ?? "")).toBeGreaterThanOrEqual(Date.parse(detail.created_at));
    // ... exactly the amount left alice and reached bob's pending balance
    expect(availableBalance(await confidentialState(given.alice), keysOf(given.alice))).toBe(
      aliceBefore - amount,
    );
    expect(decryptPendingBalance(await confidentialState(given.bob), keysOf(given.bob))).toBe(
      bobBefore + amount,
    );
    // ... the final transaction carries the record whose memo bob and alice decrypt, and carol cannot
    const transaction = await landedTransaction(given.world.chain, created.tx_signature);
    if (transaction === null) throw new Error("the transfer's transaction is not on chain");
    for (const party of [given.bob, given.alice]) {
      expect(
        (await readTransferMemo({ transaction, keys: keysOf(party), chain: given.world.chain })).memoText,
      ).toBe(memo);
    }
    let carolError: unknown;
    try {
      await readTransferMemo({ transaction, keys: keysOf(given.carol), chain: given.world.chain });
    } catch (error) {
      carolError = error;
    }
    expect(isConfidentialError(carolError, "memo_undecryptable")).toBe(true);
    // ... the row went submitting -> submitted -> settled and kept every signature
    const stored = await given.world.transferRow(created.transfer_id);
    expect(stored).toMatchObject({ phase: "settled", status: "confirmed", failureCode: null });
    const signatures = JSON.parse(stored.signatures) as string[];
    expect(signatures.length).toBeGreaterThan(1);
    expect(signatures[signatures.length - 1]).toBe(created.tx_signature);
    // ... and neither the amount nor the memo is in any table, any log line, or the answers
    const haystack = [
      await everythingStored(),
      given.world.logs.join("\n"),
      JSON.stringify([created, detail]),
    ].join("\n");
    for (const needle of ["12.345678", "12345678", memo, "cedar"]) expect(haystack).not.toContain(needle);
  });

  it("fires transfer.initiated then transfer.confirmed to alice, and transfer.confirmed to bob, each once and without an amount", async () => {
    // Given a settled transfer from alice
    const created = await given.alice.client.call("createTransfer", { body: { to: "@bob", amount: "1.5" } });
    await settled(given.alice, created.transfer_id);
    // When the outbox is read
    const { db } = given.world.service.context;
    const events = await db.read((q) =>
      q.select().from(db.tables.events).where(eq(db.tables.events.resourceId, created.transfer_id)),
    );
    // Then exactly the two facts are there for alice, and the one for bob, shaped like spec 6.2
    const toAlice = events.filter((event) => event.accountId === given.alice.account.id);
    const toBob = events.filter((event) => event.accountId === given.bob.account.id);
    expect(toAlice.map((event) => event.type).sort()).toEqual(["transfer.confirmed", "transfer.initiated"]);
    expect(toBob.map((event) => event.type)).toEqual(["transfer.confirmed"]);
    expect(events).toHaveLength(3);
    for (const event of events) {
      const sent = event.accountId === given.alice.account.id;
      const payload = JSON.parse(event.payload) as Record<string, unknown>;
      expect(payload).toEqual({
        event: event.type,
        event_id: event.id,
        account: sent ? "@alice" : "@bob",
        direction: sent ? "sent" : "received",
        counterparty: sent ? "@bob" : "@alice",
        asset: "USDG",
        confidential: true,
        tx_signature: created.tx_signature,
        transfer_id: created.transfer_id,
        timestamp: expect.any(String),
      });
    }
  });

  it("counts each transfer on the key and keeps a total only alice's secret decrypts", async () => {
    // Given alice's key after the transfers above (12.345678 + 1.5 USDG)
    const { db } = given.world.service.context;
    const read = async () => {
      const [key] = await db.read((q) =>
        q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, given.alice.key.id)),
      );
      if (key === undefined || key.transferredTotal === null) throw new Error("no usage recorded");
      return key;
    };
    const before = await read();
    // When one more transfer is made
    const created = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "0.000001" },
    });
    await settled(given.alice, created.transfer_id);
    // Then the count grew by one and the encrypted total decrypts to the exact sum with alice's keys
    const after = await read();
    expect(after.transferCount).toBe(before.transferCount + 1);
    expect(
      decryptEncryptedTotal(encryptedTotalFromBase64(after.transferredTotal as string), keysOf(given.alice)),
    ).toBe(12_345_678n + 1_500_000n + 1n);
    // ... and bob's keys cannot read it
    expect(() =>
      decryptEncryptedTotal(encryptedTotalFromBase64(after.transferredTotal as string), keysOf(given.bob)),
    ).toThrow();
  });

  it("shows bob a confirmed transfer it received (never an unconfirmed one), sealed so only alice and bob read the amount and memo", async () => {
    // Given a confirmed transfer from alice to bob, and two rows paid to bob that never confirmed
    const memo = "rent, flat 4";
    const created = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "2.000314", memo },
    });
    const sent = await settled(given.alice, created.transfer_id);
    const [pending, failed] = [await unconfirmedTo(given.bob), await unconfirmedTo(given.bob)];
    await markFailed(given.world.service.context, failed, {
      from: "submitting",
      failureCode: "test",
      fireEvent: false,
    });
    // When bob reads it, and lists what it received
    const got = await given.bob.client.call("getTransfer", { params: { transfer_id: created.transfer_id } });
    const received = await given.bob.client.call("listTransfers", {
      query: { direction: "received", limit: 100 },
    });
    // Then bob sees it as received from @alice, with the same sealed details alice sees as sent
    expect(sent).toMatchObject({ direction: "sent", sealed_details: expect.any(String) });
    expect(got).toEqual({ ...sent, direction: "received", approval: null });
    const ids = received.transfers.map((transfer) => transfer.transfer_id);
    expect(ids).toContain(created.transfer_id);
    expect(received.transfers.every((t) => t.direction === "received" && t.status === "confirmed")).toBe(
      true,
    );
    expect(received.transfers.every((t) => t.from === "@alice")).toBe(true);
    const bobSent = await given.bob.client.call("listTransfers", {
      query: { direction: "sent", limit: 100 },
    });
    expect(bobSent.transfers.map((transfer) => transfer.transfer_id)).not.toContain(created.transfer_id);
    // ... but never the pending or the failed one, nor does carol see alice's transfer
    for (const [who, id] of [
      [given.bob, pending],
      [given.bob, failed],
      [given.carol, created.transfer_id],
    ] as const) {
      const refusal = await refusalOf(who.client.call("getTransfer", { params: { transfer_id: id } }));
      expect([refusal.status, refusal.code]).toEqual([404, "transfer_not_found"]);
    }
    const everything = (await given.bob.client.call("listTransfers", { query: { limit: 100 } })).transfers;
    expect(everything.map((transfer) => transfer.transfer_id)).not.toEqual(expect.arrayContaining([pending]));
    expect(everything.map((transfer) => transfer.transfer_id)).not.toEqual(expect.arrayContaining([failed]));
    // ... and each party opens the exact amount and memo with its own secret; carol cannot
    const open = (viewer: ViewingKeys) =>
      openTransferDetails({ sealed: sent.sealed_details ?? "", viewer, boundTo: created.transfer_id });
    expect(open(viewingKeysOf(given.alice))).toEqual({ amount: 2_000_314n, memo, direction: "sent" });
    expect(open(viewingKeysOf(given.bob))).toEqual({ amount: 2_000_314n, memo, direction: "received" });
    let carolError: unknown;
    try {
      open(viewingKeysOf(given.carol));
    } catch (error) {
      carolError = error;
    }
    expect(isSealedError(carolError, "not_yours")).toBe(true);
  });

  it("sends publicly to a base58 address with no token account, creating it for the account-opening fee", async () => {
    // Given a wallet the service has never seen
    const stranger = (await generateKeyPairSigner()).address;
    const alicePublicBefore = await publicBalance(given.alice.account.publicKey);
    // When alice sends 3 USDG to it with confidential: false
    const created = await given.alice.client.call("createTransfer", {
      body: { to: stranger, amount: "3", confidential: false },
    });
    // Then the transfer settles, exactly 3 USDG reach the stranger, and alice also paid the stated
    // fee for opening its account (the default 1 USDG)
    expect(created).toMatchObject({
      to: stranger,
      confidential: false,
      approval: null,
      fees: { account_opening: "1" },
    });
    const detail = await settled(given.alice, created.transfer_id);
    expect(detail.status).toBe("confirmed");
    expect(await publicBalance(stranger)).toBe(usdg(3));
    // ... and, the stranger having no ElGamal key, alice sealed its details to herself
    expect(
      openTransferDetails({
        sealed: detail.sealed_details ?? "",
        viewer: viewingKeysOf(given.alice),
        boundTo: created.transfer_id,
      }),
    ).toEqual({ amount: usdg(3), memo: null, direction: "self" });
    expect(await publicBalance(given.alice.account.publicKey)).toBe(alicePublicBefore - usdg(3) - usdg(1));
  });

  it("refuses a memo to a recipient with no confidential key, and a confidential transfer to it", async () => {
    // Given a wallet with a plain (non-confidential) token account
    const stranger = (await generateKeyPairSigner()).address;
    await given.alice.client.call("createTransfer", {
      body: { to: stranger, amount: "1", confidential: false },
    });
    // When alice adds a memo (it is encrypted to the recipient's confidential key), or sends confidentially
    const refusals = await Promise.all([
      given.alice.client
        .call("createTransfer", { body: { to: stranger, amount: "1", confidential: false, memo: "hi" } })
        .catch((error: unknown) => error),
      given.alice.client
        .call("createTransfer", { body: { to: stranger, amount: "1" } })
        .catch((error: unknown) => error),
    ]);
    // Then both are refused with the field to change
    expect(refusals[0]).toBeInstanceOf(ApiRequestError);
    expect(refusals[0]).toMatchObject({ status: 400, code: "invalid_request", param: "memo" });
    expect(refusals[1]).toMatchObject({ status: 422, code: "recipient_not_confidential_ready", param: "to" });
  });
});
