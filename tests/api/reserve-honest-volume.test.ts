/**
 * The reserve budget bounds what an account makes the fee reserve lose, not the rent it advances
 * and gets back. Every transfer advances a Receipt's rent (1,670,400 lamports) that the receipt job
 * returns about 1,000 slots later; only the fees (and rent nobody gives back) are lost. So an
 * account sending far more transfers than its budget could hold receipts for is never refused, as
 * long as what it makes the reserve lose stays in the budget and what is advanced at once stays
 * under the advance cap. The worlds here scale the defaults down by 50 (1 SOL a day and a 5 SOL cap
 * become 0.02 and 0.1 SOL), so 40 transfers stand for 2,000, all sent one after another before the
 * first receipt comes back (the heaviest way to send them). Each waits for the one before to be
 * settled: a transfer's in-flight reservation (2,084,080 lamports it may lose, for the recipient's
 * token account it might have to open) is held until its transaction is readable a slot later, and
 * at 1/50 of the budget only nine fit at once where the default budget holds 479. An agent's
 * transfer held for its owner advances its hold's rent too, back when the owner decides.
 */
import { FINALITY_DEPTH } from "@cpay/localnet/cluster";
import { getPendingTransactionSize, getReceiptSize, RECEIPT_MIN_AGE_SLOTS } from "@cpay/sdk";
import { ApiRequestError } from "@cpay/sdk/api";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { type ApiWorld, usdg } from "../support/api-world";
import { lamportsOf, landedTransaction, signerState } from "../support/chain-reads";
import { createTestAgent } from "./support/agents";
import { eventually, holdAgentTransfer } from "./support/held-transfer";

/** The default daily budget (1 SOL) scaled by 1/50. */
const BUDGET = 20_000_000n;
/** The default advance cap (5 SOL) scaled by 1/50. */
const ADVANCE_CAP = 100_000_000n;
/** 2,000 transfers scaled by 1/50: every tenth confidential. */
const TRANSFERS = 40;

/** What `request` ended with: 201, or the refusal (its status, code and message). */
async function outcomeOf(request: Promise<unknown>): Promise<string> {
  try {
    await request;
    return "201";
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return error.message;
  }
}

/** The account's reserve charges: today's loss (settled, reserved) and its advances (settled, reserved). */
async function chargesOf(world: ApiWorld, accountId: string) {
  const { db } = world.service.context;
  const { reserveUsage, reserveAdvances } = db.tables;
  const day = new Date(world.service.context.clock()).toISOString().slice(0, 10);
  const [usage] = await db.read((q) =>
    q
      .select()
      .from(reserveUsage)
      .where(and(eq(reserveUsage.accountId, accountId), eq(reserveUsage.day, day))),
  );
  const [advances] = await db.read((q) =>
    q.select().from(reserveAdvances).where(eq(reserveAdvances.accountId, accountId)),
  );
  return {
    lost: BigInt(usage?.lamports ?? 0),
    lossReserved: BigInt(usage?.reservedLamports ?? 0),
    advanced: BigInt(advances?.lamports ?? 0),
    advanceReserved: BigInt(advances?.reservedLamports ?? 0),
  };
}

/** The fees of every transaction the transfers made (each one's `signatures`). */
async function feesOf(world: ApiWorld, transferIds: readonly string[]): Promise<bigint> {
  let fees = 0n;
  for (const id of transferIds) {
    const row = await world.transferRow(id);
    for (const signature of JSON.parse(row.signatures) as string[]) {
      fees += (await landedTransaction(world.chain, signature)).fee;
    }
  }
  return fees;
}

describe("an account sending far more transfers than its budget could hold receipts for", () => {
  const given = apiSuite({
    // 200 ms slots: the first receipt is closable 1,032 slots (206 s) after its transfer, well after
    // the last of the 40 is settled however busy the machine is.
    world: {
      slotMs: 200,
      env: {
        RESERVE_DAILY_BUDGET_LAMPORTS: String(BUDGET),
        RESERVE_ADVANCE_CAP_LAMPORTS: String(ADVANCE_CAP),
      },
    },
    accounts: { sender: { handle: "payroll", type: "business" }, bob: "bob" },
    funds: { sender: { confidential: usdg(1), public: usdg(1) } },
  });

  it("Given 40 transfers one after another (2,000 scaled by 1/50), Then none is refused; the budget counts only the fees, the receipts are advances, and once the receipt job has closed them the reserve is out exactly the fees", async () => {
    const reserve = given.world.service.context.feePayer.address;
    // (Opening and funding the account was the operator's spend: nothing is counted to it yet.)
    await given.world.reserveSettled();
    const before = await lamportsOf(given.world.chain, reserve);

    // When the account sends 40 transfers, every tenth confidential, each to a recipient with an account
    const outcomes: string[] = [];
    const ids: string[] = [];
    for (let index = 0; index < TRANSFERS; index++) {
      const request = given.sender.client.call("createTransfer", {
        body: { to: "@bob", amount: "0.01", confidential: index % 10 === 9 },
      });
      request.then((created) => ids.push(created.transfer_id)).catch(() => undefined);
      outcomes.push(await outcomeOf(request));
      await given.world.reserveSettled();
    }

    // Then every one was accepted
    expect(outcomes.filter((outcome) => outcome !== "201")).toEqual([]);
    await given.world.reserveSettled();
    const receiptRent = await given.world.chain.minimumBalanceForRentExemption(getReceiptSize());
    const fees = await feesOf(given.world, ids);
    const paid = before - (await lamportsOf(given.world.chain, reserve));
    // ... the reserve paid their fees and advanced their receipts' rent, nothing else
    expect(paid).toBe(fees + BigInt(TRANSFERS) * receiptRent);
    // ... and its charges count the fees as lost and the receipts as advanced, nothing held
    expect(await chargesOf(given.world, given.sender.account.id)).toEqual({
      lost: fees,
      lossReserved: 0n,
      advanced: BigInt(TRANSFERS) * receiptRent,
      advanceReserved: 0n,
    });

    // When the receipts are old enough at finalized commitment and the job closes them
    await Promise.all(
      ids.map((id) =>
        eventually(
          () => given.world.transferRow(id),
          (row) => row.phase === "settled",
        ),
      ),
    );
    await given.world.testClock.advanceSlots(Number(RECEIPT_MIN_AGE_SLOTS + FINALITY_DEPTH) + 2);
    const { db } = given.world.service.context;
    const closures = await eventually(
      () => db.read((q) => q.select().from(db.tables.receiptClosures)),
      (rows) =>
        rows.filter((row) => ids.includes(row.transferId) && row.outcome === "closed").length === TRANSFERS,
      60_000,
    );
    // Then the advances are back to nothing, and what the reserve is out is the fees its charges count
    const advancedNow = await eventually(
      () => chargesOf(given.world, given.sender.account.id),
      (charges) => charges.advanced === 0n,
    );
    expect(advancedNow).toEqual({ lost: fees, lossReserved: 0n, advanced: 0n, advanceReserved: 0n });
    let closingFees = 0n;
    for (const signature of new Set(closures.map((row) => row.signature as string))) {
      closingFees += (await landedTransaction(given.world.chain, signature)).fee;
    }
    expect(before - (await lamportsOf(given.world.chain, reserve))).toBe(fees + closingFees);
  }, 240_000);
});

describe("an account whose advanced rent does not come back", () => {
  /** Room for three receipts' rent (and their in-flight share), not four. */
  const cap = 3n * 1_670_400n + 1_000_000n;
  const given = apiSuite({
    // Mainnet's 400 ms slots: a receipt is 1,000 slots (400 s) from coming back, whatever the machine's speed.
    world: { slotMs: 400, env: { RESERVE_ADVANCE_CAP_LAMPORTS: String(cap) } },
    accounts: { sender: "hoarder", bob: "bob" },
    funds: { sender: { public: usdg(1) } },
  });

  it("Given receipts not yet returned, When their rent reaches the advance cap, Then the next transfer is refused (429 reserve_budget_exhausted) with nothing signed or written", async () => {
    const reserve = given.world.service.context.feePayer.address;
    const { db } = given.world.service.context;
    const transferCount = async () => (await db.read((q) => q.select().from(db.tables.transfers))).length;
    const outcomes: string[] = [];
    for (let index = 0; index < 4; index++) {
      await given.world.reserveSettled();
      const signedBefore = await signerState(given.world.chain, reserve);
      const rowsBefore = await transferCount();
      const outcome = await outcomeOf(
        given.sender.client.call("createTransfer", {
          body: { to: "@bob", amount: "0.01", confidential: false },
        }),
      );
      outcomes.push(outcome.split(":")[0] as string);
      if (outcome !== "201") {
        expect(outcome).toContain("advance");
        expect(await signerState(given.world.chain, reserve)).toEqual(signedBefore);
        expect(await transferCount()).toBe(rowsBefore);
      }
    }
    expect(outcomes).toEqual(["201", "201", "201", "429 reserve_budget_exhausted"]);
    await given.world.reserveSettled();
    const charges = await chargesOf(given.world, given.sender.account.id);
    expect(charges.advanced).toBe(
      3n * (await given.world.chain.minimumBalanceForRentExemption(getReceiptSize())),
    );
    expect(charges.advanceReserved).toBe(0n);
  });
});

describe("an agent's transfer held for its owner", () => {
  const given = apiSuite({
    // 200 ms slots: the receipt stays out (206 s) for the whole test however busy the machine is.
    world: { slotMs: 200 },
    accounts: { owner: "carol", bob: "bob" },
    setUp: async ({ world, owner }) => {
      const agent = await createTestAgent(world, owner, "payer");
      await world.fund(agent.row, { public: usdg(100) });
      return { agent };
    },
  });

  it("Given a transfer above the HITL threshold, When held, Then its hold's rent and its receipt's are advanced for the owner; When approved, Then the hold's comes back off the advances and only fees were lost", async () => {
    const reserve = given.world.service.context.feePayer.address;
    const [holdRent, receiptRent] = await Promise.all([
      given.world.chain.minimumBalanceForRentExemption(getPendingTransactionSize()),
      given.world.chain.minimumBalanceForRentExemption(getReceiptSize()),
    ]);
    await given.world.reserveSettled();
    const start = {
      charges: await chargesOf(given.world, given.owner.account.id),
      reserve: await lamportsOf(given.world.chain, reserve),
    };
    /** What changed since `start`: the reserve's lamports paid out, and the owner's charges. */
    const since = async () => {
      await given.world.reserveSettled();
      const charges = await chargesOf(given.world, given.owner.account.id);
      return {
        paid: start.reserve - (await lamportsOf(given.world.chain, reserve)),
        lost: charges.lost - start.charges.lost,
        advanced: charges.advanced - start.charges.advanced,
        held: charges.lossReserved + charges.advanceReserved,
      };
    };

    // When the agent's transfer of 60 USDG (HITL 50) is held
    const held = await holdAgentTransfer(given.world, given.agent, {
      to: "@bob",
      amount: "60",
      confidential: false,
    });
    const afterHold = await since();
    // Then the hold and the receipt are advanced, the rest the reserve paid (the fee) is lost
    expect(afterHold.advanced).toBe(holdRent + receiptRent);
    expect(afterHold).toEqual({
      paid: afterHold.lost + holdRent + receiptRent,
      lost: afterHold.lost,
      advanced: holdRent + receiptRent,
      held: 0n,
    });
    expect(afterHold.lost).toBe(await feesOf(given.world, [held.transferId]));

    // When the owner approves it
    await given.owner.client.call("approveTransaction", { params: { transaction_id: held.transactionId } });
    const afterApproval = await since();
    // Then the hold's rent is back and off the advances; the approval lost its fee
    expect(afterApproval.advanced).toBe(receiptRent);
    expect(afterApproval.paid).toBe(afterApproval.lost + receiptRent);
    expect(afterApproval.lost).toBe(await feesOf(given.world, [held.transferId]));
    expect(afterApproval.lost).toBeGreaterThan(afterHold.lost);
  });
});
