/**
 * Settling the fee reserve's spends in the background: a request answers once its transactions
 * landed, and its reservations stay held at their maximum until what they cost is readable. The
 * settle is restart-safe: a spend a process recorded and died before settling (its row left, its
 * reservation held, nobody's queue holding it) is settled by the sweep of whichever process runs
 * next — once, to what its transaction cost, and the row is gone.
 */
import { sendInstructions, withReserveSpend } from "@cpay/api";
import { getReceiptSize } from "@cpay/sdk";
import { generateKeyPairSigner } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { landedTransaction } from "../support/chain-reads";

const SENT_LAMPORTS = 1_000_000n;
/** What the dead process had reserved for its transaction (its maximum, more than it cost). */
const RESERVED = 2_000_000n;

describe("the fee reserve's spends, settled in the background", () => {
  const given = apiSuite({
    accounts: { owner: "carol", dave: "dave" },
    funds: { owner: { public: usdg(1) } },
  });

  const { day, charges } = {
    day: () => new Date().toISOString().slice(0, 10),
    charges: async () => {
      const { db } = given.world.service.context;
      const { reserveUsage, reserveAdvances } = db.tables;
      const [row] = await db.read((q) =>
        q
          .select()
          .from(reserveUsage)
          .where(and(eq(reserveUsage.accountId, given.owner.account.id), eq(reserveUsage.day, day()))),
      );
      const [advances] = await db.read((q) =>
        q.select().from(reserveAdvances).where(eq(reserveAdvances.accountId, given.owner.account.id)),
      );
      return {
        lamports: BigInt(row?.lamports ?? 0),
        reserved: BigInt(row?.reservedLamports ?? 0),
        advanced: BigInt(advances?.lamports ?? 0),
        advanceReserved: BigInt(advances?.reservedLamports ?? 0),
      };
    },
  };

  it("Given a transfer answered, When its transaction is readable, Then what it cost replaces its reservation: its receipt's rent advanced, the rest lost", async () => {
    const feePayer = given.world.service.context.feePayer.address;
    const before = (await given.world.chain.getAccount(feePayer))?.lamports ?? 0n;
    await given.world.reserveSettled();
    const charged = await charges();
    const transfer = await given.owner.client.call("createTransfer", {
      body: { to: "@dave", amount: "0.5", confidential: false },
    });
    expect(transfer.transfer_id).toMatch(/^tr_/);
    await given.world.reserveSettled();
    const paid = before - ((await given.world.chain.getAccount(feePayer))?.lamports ?? 0n);
    const receiptRent = await given.world.chain.minimumBalanceForRentExemption(getReceiptSize());
    expect(paid).toBeGreaterThan(receiptRent);
    expect(await charges()).toEqual({
      lamports: charged.lamports + paid - receiptRent,
      reserved: 0n,
      advanced: charged.advanced + receiptRent,
      advanceReserved: 0n,
    });
  });

  it("Given a spend whose process died before settling it, When the sweep runs, Then it is settled once, to what its transaction cost", async () => {
    const { context } = given.world.service;
    const { db } = context;
    await given.world.reserveSettled();
    const start = await charges();
    // What the dead process did: reserved its maximum, signed and sent with the reserve, recorded
    // the spend; then it died (no queue of any live process holds it).
    const destination = (await generateKeyPairSigner()).address;
    const signature = await withReserveSpend(context, null, () =>
      sendInstructions(context, [
        getTransferSolInstruction({ source: context.feePayer, destination, amount: SENT_LAMPORTS }),
      ]),
    );
    const { reserveUsage, reserveReconciliations } = db.tables;
    await db.transaction(async (tx) => {
      await tx
        .insert(reserveUsage)
        .values({
          accountId: given.owner.account.id,
          day: day(),
          lamports: 0,
          reservedLamports: Number(RESERVED),
        })
        .onConflictDoUpdate({
          target: [reserveUsage.accountId, reserveUsage.day],
          set: { reservedLamports: sql`${reserveUsage.reservedLamports} + ${Number(RESERVED)}` },
        });
      await tx.insert(reserveReconciliations).values({
        signature,
        accountId: given.owner.account.id,
        reservations: JSON.stringify([{ day: day(), lamports: RESERVED.toString() }]),
        signatures: JSON.stringify([signature]),
        createdAt: new Date(Date.now() - 60_000).toISOString(),
      });
    });
    expect(await charges()).toEqual({ ...start, reserved: start.reserved + RESERVED });

    await given.world.reserveSettled(40_000);

    const landed = await landedTransaction(given.world.chain, signature);
    expect(await charges()).toEqual({ ...start, lamports: start.lamports + landed.fee + SENT_LAMPORTS });
  }, 60_000);
});
