/**
 * The fee reserve pays every settle's fee, charged to the merchant's reserve budget and bounded by
 * it like every reserve lamport: with a small budget (`RESERVE_DAILY_BUDGET_LAMPORTS`, room for a
 * few payments' fees), 20 settle requests of 20 different good payments sent at once settle only as
 * many as the budget has room for; every other one is refused `reserve_budget_exhausted` before the
 * reserve signed anything, moves nothing, and may be presented again later (its claim given back).
 */

import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import type { HTTPFacilitatorClient } from "@x402/core/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { lamportsOf } from "../support/chain-reads";
import { cpayFacilitator, usdgRequirement } from "./support/cpay-facilitator";
import { keypairPayment, memo } from "./support/keypair-payment";

const PAYMENTS = 20;
const PRICE = 100_000n;
/** A payment's most: two signatures' base fees and 20,000 units at 1 micro-lamport (1 lamport). */
const FEE_BOUND = 10_001;
/** Room for five payments' fees, not six. */
const BUDGET = 5 * FEE_BOUND + 5_000;

let world: ApiWorld;
let merchant: WorldAccount;
let wallet: KeyPairSigner;
let facilitator: HTTPFacilitatorClient;

beforeAll(async () => {
  world = await startApiWorld({ chain: "rpc", env: { RESERVE_DAILY_BUDGET_LAMPORTS: String(BUDGET) } });
  merchant = await world.account("merchant", { type: "business" });
  wallet = await generateKeyPairSigner();
  await world.faucet.mintUsdgToOwner(wallet.address, usdg(10));
  facilitator = cpayFacilitator(world.url, merchant.key.value);
}, 300_000);

afterAll(async () => {
  await world?.close();
});

describe("settles charged to a merchant's reserve budget", () => {
  it("Given a budget with room for five payments' fees, When 20 good payments are settled at once, Then five settle and fifteen are refused reserve_budget_exhausted: the reserve loses at most the budget and only settled payments move", async () => {
    const requirements = await usdgRequirement(world, facilitator, {
      payTo: merchant.account.publicKey,
      amount: PRICE,
    });
    const payments = await Promise.all(
      Array.from({ length: PAYMENTS }, (_, index) =>
        keypairPayment({
          chain: world.chain,
          payer: wallet,
          requirements,
          change: ([limit, price, transfer]) => [limit, price, transfer, memo(`payment ${index}`)],
        }),
      ),
    );
    const reserve = world.service.context.feePayer.address;
    const [reserveBefore, merchantBefore, walletBefore] = await Promise.all([
      lamportsOf(world.chain, reserve),
      publicUsdg(world, merchant.account.publicKey),
      publicUsdg(world, wallet.address),
    ]);

    const settlements = await Promise.all(
      payments.map((payment) => facilitator.settle(payment, requirements)),
    );

    const settled = settlements.filter((settlement) => settlement.success);
    const refused = settlements.filter((settlement) => !settlement.success);
    expect(settled).toHaveLength(5);
    expect(refused.map((settlement) => settlement.errorReason)).toEqual(
      Array(PAYMENTS - 5).fill("reserve_budget_exhausted"),
    );
    expect(refused.every((settlement) => settlement.transaction === "")).toBe(true);
    const [reserveAfter, merchantAfter, walletAfter] = await Promise.all([
      lamportsOf(world.chain, reserve),
      publicUsdg(world, merchant.account.publicKey),
      publicUsdg(world, wallet.address),
    ]);
    expect(reserveBefore - reserveAfter).toBeLessThanOrEqual(BigInt(BUDGET));
    expect(merchantAfter - merchantBefore).toBe(PRICE * 5n);
    expect(walletBefore - walletAfter).toBe(PRICE * 5n);
    const { reserveUsage, x402Settlements } = world.service.context.db.tables;
    const usage = await world.service.context.db.read((db) =>
      db.select().from(reserveUsage).where(eq(reserveUsage.accountId, merchant.account.id)),
    );
    const charged = usage.reduce((sum, row) => sum + row.lamports + row.reservedLamports, 0);
    expect(charged).toBeLessThanOrEqual(BUDGET);
    expect(charged).toBeGreaterThanOrEqual(Number(reserveBefore - reserveAfter));
    const records = await world.service.context.db.read((db) =>
      db.select().from(x402Settlements).where(eq(x402Settlements.accountId, merchant.account.id)),
    );
    expect(records.map((record) => record.status)).toEqual(Array(5).fill("settled"));
    // ... and a refused payment is no duplicate: it may be presented again (once the budget has room)
    const again = payments[settlements.findIndex((settlement) => !settlement.success)];
    expect(await facilitator.verify(again as (typeof payments)[number], requirements)).toMatchObject({
      isValid: true,
      payer: wallet.address,
    });
  });
});
