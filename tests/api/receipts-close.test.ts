/**
 * The receipt job: every transfer's Receipt is paid by the fee reserve; once the transfer is
 * settled and the receipt RECEIPT_MIN_AGE_SLOTS old at `finalized`, the service closes it and the
 * reserve has every lamport back, recorded in `receipt_closures` and taken off what the reserve has
 * advanced for the sender. A younger receipt is left alone.
 */
import { bytesOfId } from "@cpay/ledger/ids";
import { FINALITY_DEPTH } from "@cpay/localnet/cluster";
import { findReceiptPda, getReceiptDecoder, RECEIPT_MIN_AGE_SLOTS } from "@cpay/sdk";
import { address } from "@solana/kit";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";
import { eventually } from "./support/held-transfer";

/** The job's period (close-receipts.ts) and a margin: long enough for one pass to have run. */
const ONE_PASS_MS = 6_000;

describe("closing the receipts of settled transfers", () => {
  const given = apiSuite({
    accounts: ["alice", "bob"],
    funds: { alice: { confidential: usdg(10), public: usdg(10) } },
  });

  async function confirmedTransfer(confidential: boolean): Promise<string> {
    const created = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential },
    });
    await eventually(
      () => given.world.transferRow(created.transfer_id),
      (row) => row.status === "confirmed",
    );
    return created.transfer_id;
  }

  async function receiptOf(transferId: string) {
    const [receipt] = await findReceiptPda(
      { sender: address(given.alice.account.publicKey), transferId: bytesOfId(transferId) },
      { programAddress: address(given.world.chain.programId) },
    );
    return receipt;
  }

  /**
   * What alice's reserve charges count (once `world.reserveSettled()`: nothing is held then): lost
   * over every day, and the rent advanced for her and not back yet.
   */
  async function aliceCharged(): Promise<{ lost: bigint; advanced: bigint }> {
    const { db } = given.world.service.context;
    const { reserveUsage, reserveAdvances } = db.tables;
    const days = await db.read((tx) =>
      tx.select().from(reserveUsage).where(eq(reserveUsage.accountId, given.alice.account.id)),
    );
    const [advances] = await db.read((tx) =>
      tx.select().from(reserveAdvances).where(eq(reserveAdvances.accountId, given.alice.account.id)),
    );
    return {
      lost: days.reduce((sum, row) => sum + BigInt(row.lamports), 0n),
      advanced: BigInt(advances?.lamports ?? 0),
    };
  }

  async function closures() {
    const { db } = given.world.service.context;
    const { receiptClosures } = db.tables;
    return db.read((tx) => tx.select().from(receiptClosures));
  }

  it("Given settled transfers, When their receipts are young, Then they stay; When final and old enough, Then the reserve gets every lamport back", async () => {
    // Given a public and a confidential transfer, settled, whose receipts the reserve paid
    const ids = [await confirmedTransfer(false), await confirmedTransfer(true)];
    const receipts = await Promise.all(ids.map(receiptOf));
    const reserve = given.world.service.context.feePayer.address;
    const rents = await Promise.all(
      receipts.map(async (receipt) => {
        const account = await given.world.chain.getAccount(receipt);
        if (account === null) throw new Error(`no receipt ${receipt}`);
        expect(getReceiptDecoder().decode(account.data).rentPayer).toBe(reserve);
        return BigInt(account.lamports);
      }),
    );
    expect(rents).toEqual([1_670_400n, 1_670_400n]);

    // When a pass of the job runs while they are young
    await new Promise((resolve) => setTimeout(resolve, ONE_PASS_MS));
    // Then nothing is closed or recorded
    for (const receipt of receipts) expect(await given.world.chain.getAccount(receipt)).not.toBeNull();
    expect(await closures()).toEqual([]);

    // When the cluster moves past the minimum age at finalized commitment
    const reserveBefore = BigInt((await given.world.chain.getAccount(reserve))?.lamports ?? 0n);
    await given.world.reserveSettled();
    const chargedBefore = await aliceCharged();
    // The receipts' rent is advanced for alice, not lost: only the fees are.
    expect(chargedBefore.advanced).toBe((rents[0] ?? 0n) + (rents[1] ?? 0n));
    await given.world.testClock.advanceSlots(Number(RECEIPT_MIN_AGE_SLOTS + FINALITY_DEPTH) + 2);
    const rows = await eventually(closures, (found) => found.length === 2, 20_000);

    // Then both receipts are closed in one transaction and the reserve has their rent back, lamport-exact
    for (const receipt of receipts) expect(await given.world.chain.getAccount(receipt)).toBeNull();
    expect(
      rows
        .map(({ transferId, outcome, rentReturned, receiptAddress }) => ({
          transferId,
          outcome,
          rentReturned,
          receiptAddress,
        }))
        .sort((a, b) => a.transferId.localeCompare(b.transferId)),
    ).toEqual(
      ids
        .map((transferId, index) => ({
          transferId,
          outcome: "closed",
          rentReturned: Number(rents[index]),
          receiptAddress: receipts[index],
        }))
        .sort((a, b) => a.transferId.localeCompare(b.transferId)),
    );
    const [signature] = new Set(rows.map((row) => row.signature));
    const closing = await landedTransaction(given.world.chain, signature as string);
    if (closing === null) throw new Error("the closing transaction is not in the history");
    const reserveAfter = BigInt((await given.world.chain.getAccount(reserve))?.lamports ?? 0n);
    expect(reserveAfter - reserveBefore).toBe((rents[0] ?? 0n) + (rents[1] ?? 0n) - closing.fee);
    // ... and nothing is advanced for alice any more, what she lost unchanged (the fee of closing is
    // the service's own)
    const after = await eventually(aliceCharged, (charged) => charged.advanced === 0n);
    expect(after.lost).toBe(chargedBefore.lost);

    // And a later pass changes nothing
    await new Promise((resolve) => setTimeout(resolve, ONE_PASS_MS));
    expect(await closures()).toHaveLength(2);
    const { transfers } = given.world.service.context.db.tables;
    const [first] = await given.world.service.context.db.read((db) =>
      db
        .select()
        .from(transfers)
        .where(eq(transfers.id, ids[0] as string)),
    );
    expect(first?.status).toBe("confirmed");
  });
});
