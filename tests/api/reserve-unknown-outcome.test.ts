/**
 * A fee reserve spend whose send ended without an answer (the RPC timed out or the connection
 * dropped after the bytes left): the transaction may still land, until its blockhash expires. The
 * reserve's charges must not call it "never landed" (cost 0, reservation released) while it still
 * can land: the reservation stays held until the transaction is readable, or its blockhash can no
 * longer land — then, and only then, it cost nothing.
 */
import { reservePayer, withReserveSpend } from "@cpay/api";
import { signTransactionToWire } from "@cpay/sdk/chain";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { landedTransaction } from "../support/chain-reads";

/** What the send's caller saw: no answer, so it cannot know whether the transaction reached a node. */
class SendOutcomeUnknown extends Error {}

describe("a fee reserve spend whose send's outcome is unknown", () => {
  const given = apiSuite({ accounts: { owner: "erin" } });

  const charges = async () => {
    const { db } = given.world.service.context;
    const { reserveUsage } = db.tables;
    const day = new Date().toISOString().slice(0, 10);
    const [row] = await db.read((q) =>
      q
        .select()
        .from(reserveUsage)
        .where(and(eq(reserveUsage.accountId, given.owner.account.id), eq(reserveUsage.day, day))),
    );
    return { lamports: BigInt(row?.lamports ?? 0), reserved: BigInt(row?.reservedLamports ?? 0) };
  };

  /** Signs a fee-only transaction with the metered reserve for `owner`, then "loses" the send. */
  const signAndLoseTheSend = async () => {
    const { context } = given.world.service;
    let signed: { signature: string; wire: Uint8Array; blockhash: string } | null = null;
    await expect(
      withReserveSpend(context, given.owner.account.id, async () => {
        const { blockhash, lastValidBlockHeight } = await context.chain.getLatestBlockhash();
        const { signature, wire } = await signTransactionToWire({
          feePayer: reservePayer(context),
          instructions: [],
          blockhash,
          lastValidBlockHeight,
        });
        signed = { signature, wire, blockhash };
        throw new SendOutcomeUnknown("the RPC did not answer the send");
      }),
    ).rejects.toBeInstanceOf(SendOutcomeUnknown);
    if (signed === null) throw new Error("nothing was signed");
    return signed as { signature: string; wire: Uint8Array; blockhash: string };
  };

  /** Several passes of the reconciler's queue (it passes every 200 ms). */
  const reconcilerPasses = () => new Promise((resolve) => setTimeout(resolve, 1_000));

  it("Given a lost send, When the reconciler passes while its blockhash is valid, Then the reservation stays held; When it lands later, Then its cost is charged", async () => {
    await given.world.reserveSettled();
    const start = await charges();
    const lost = await signAndLoseTheSend();
    const held = (await charges()).reserved - start.reserved;
    expect(held).toBeGreaterThan(0n);

    await reconcilerPasses();
    expect(await given.world.chain.isBlockhashValid(lost.blockhash)).toBe(true);
    expect(await charges()).toEqual({ lamports: start.lamports, reserved: start.reserved + held });

    // The bytes did reach a node: the transaction lands after all.
    await given.world.chain.sendTransaction(lost.wire);
    const landed = await landedTransaction(given.world.chain, lost.signature);
    await given.world.reserveSettled();
    expect(await charges()).toEqual({ lamports: start.lamports + landed.fee, reserved: start.reserved });
  }, 60_000);

  it("Given a lost send that never lands, When its blockhash expires, Then it cost nothing and the reservation is released", async () => {
    await given.world.reserveSettled();
    const start = await charges();
    const lost = await signAndLoseTheSend();
    const held = (await charges()).reserved - start.reserved;
    await reconcilerPasses();
    expect(await charges()).toEqual({ lamports: start.lamports, reserved: start.reserved + held });

    while (await given.world.chain.isBlockhashValid(lost.blockhash)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await given.world.reserveSettled();
    expect(await charges()).toEqual({ lamports: start.lamports, reserved: start.reserved });
    expect(await given.world.chain.getSignatureStatus(lost.signature)).toBeNull();
  }, 120_000);
});
