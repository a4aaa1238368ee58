/**
 * 2,000 transfers a day against the reserve's charges at the default bounds (1 SOL lost a day, 5 SOL
 * advanced at once), driven through the charging functions on a moved clock with the lamports real
 * transfers reserve and settle to, measured on the cluster (tests/api/reserve-honest-volume.test.ts
 * checks the settled figures on real transfers; the reservations are spend-bound.ts's bounds of the
 * same transactions):
 * - a public transfer to a recipient with a token account reserves 2,084,080 lamports it may lose
 *   (two signatures, 10,000, and the recipient's token account it may have to open, 2,074,080) and
 *   advances 1,670,400 (the Receipt); it settles to 10,000 lost and 1,670,400 advanced;
 * - a confidential one reserves 8,579,920 it may lose (eight signatures over its transactions,
 *   40,000, and its proof contexts, 8,539,920, closed again within the transfer) and advances the
 *   Receipt's 1,670,400; it settles to 40,000 lost and 1,670,400 advanced;
 * - the receipt job gives each Receipt's 1,670,400 back once it is 1,000 slots old at finalized
 *   commitment: 1,032 slots of 400 ms and a 5 s job period, 418 s after its transfer at most.
 */
import { type Database, openDatabase } from "@cpay/ledger/database";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../core/api-error";
import {
  type ChargesContext,
  chargesOf,
  creditReturnedRent,
  type ReserveCharge,
  reserveLamports,
  settleReservation,
} from "./reserve-charges";

const PUBLIC = {
  reserved: { loss: 2_084_080n, advance: 1_670_400n },
  settled: { loss: 10_000n, advance: 1_670_400n },
};
const CONFIDENTIAL = {
  reserved: { loss: 8_579_920n, advance: 1_670_400n },
  settled: { loss: 40_000n, advance: 1_670_400n },
};
/** A public transfer to a fresh address: its token account's rent the recipient may close and keep. */
const TO_FRESH_ADDRESS = {
  reserved: PUBLIC.reserved,
  settled: { loss: 2_084_080n, advance: 1_670_400n },
};
const RECEIPT_RENT = 1_670_400n;
const RECEIPT_BACK_AFTER_MS = 418_000;
const DAY_MS = 86_400_000;
const SOL = 1_000_000_000n;

interface Transfer {
  readonly reserved: ReserveCharge;
  readonly settled: ReserveCharge;
}

describe("the reserve's charges under 2,000 transfers a day", () => {
  let db: Database;
  let now = 0;
  let service: ChargesContext;
  beforeEach(async () => {
    db = await openDatabase(":memory:");
    service = {
      db,
      clock: () => now,
      config: { reserveDailyBudgetLamports: Number(SOL), reserveAdvanceCapLamports: Number(5n * SOL) },
    };
  });
  afterEach(async () => {
    await db.close();
  });

  /**
   * Sends `count` transfers `everyMs` apart from `start`, each reserved then settled, with every
   * receipt given back `backAfterMs` later (never when null), as the receipt job does. Returns the
   * refusals (by index), the most advanced at once, and when the receipts still out come back.
   */
  async function send(input: {
    readonly start: number;
    readonly everyMs: number;
    readonly count: number;
    readonly transfer: (index: number) => Transfer;
    readonly backAfterMs: number | null;
  }): Promise<{ refusals: string[]; mostAdvanced: bigint; returns: number[] }> {
    const refusals: string[] = [];
    const returns: number[] = [];
    let mostAdvanced = 0n;
    for (let index = 0; index < input.count; index++) {
      now = input.start + index * input.everyMs;
      await giveBackDue(returns);
      const transfer = input.transfer(index);
      try {
        const reservation = await reserveLamports(service, "acct", transfer.reserved);
        await settleReservation(service, reservation, transfer.settled);
        if (input.backAfterMs !== null) returns.push(now + input.backAfterMs);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refusals.push(`#${index} ${error.code}: ${error.message}`);
      }
      const { advanced } = await chargesOf(service, "acct", day(now));
      if (advanced > mostAdvanced) mostAdvanced = advanced;
    }
    return { refusals, mostAdvanced, returns };
  }

  /** The receipt job's credits of every receipt due back by `now`. */
  async function giveBackDue(returns: number[]): Promise<void> {
    while (returns.length > 0 && (returns[0] as number) <= now) {
      returns.shift();
      await creditReturnedRent(service, "acct", RECEIPT_RENT);
    }
  }

  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  const mix = (index: number) => (index % 10 === 9 ? CONFIDENTIAL : PUBLIC);

  it("Given one transfer every 43.2 s from noon to noon (every tenth confidential), Then none is refused, each day counts only its fees, and across midnight the receipts still come back to nothing out", async () => {
    const start = Date.parse("2026-03-02T12:00:00Z");
    const { refusals, mostAdvanced, returns } = await send({
      start,
      everyMs: DAY_MS / 2000,
      count: 2000,
      transfer: mix,
      backAfterMs: RECEIPT_BACK_AFTER_MS,
    });
    expect(refusals).toEqual([]);
    // About ten receipts are out at once (418 s of a transfer every 43.2 s).
    expect(mostAdvanced).toBe(10n * RECEIPT_RENT);
    // Each day lost exactly its transfers' fees: 1,000 before midnight and 1,000 after.
    const fees = 900n * PUBLIC.settled.loss + 100n * CONFIDENTIAL.settled.loss;
    expect((await chargesOf(service, "acct", "2026-03-02")).lost).toBe(fees);
    expect((await chargesOf(service, "acct", "2026-03-03")).lost).toBe(fees);
    // Once the last receipts are back, nothing is out.
    now += RECEIPT_BACK_AFTER_MS;
    await giveBackDue(returns);
    expect(await chargesOf(service, "acct", day(now))).toMatchObject({ advanced: 0n, advanceReserved: 0n });
  });

  it("Given 2,000 transfers back to back, three a second (faster than any receipt comes back), Then none is refused: they lose 0.026 SOL, and advance 2.1 SOL at most at once", async () => {
    const { refusals, mostAdvanced } = await send({
      start: Date.parse("2026-03-02T09:00:00Z"),
      everyMs: 333,
      count: 2000,
      transfer: mix,
      backAfterMs: RECEIPT_BACK_AFTER_MS,
    });
    expect(refusals).toEqual([]);
    // Every receipt of the last 418 s is out: 1,256 of them.
    expect(mostAdvanced).toBe(BigInt(Math.ceil(RECEIPT_BACK_AFTER_MS / 333)) * RECEIPT_RENT);
    expect((await chargesOf(service, "acct", "2026-03-02")).lost).toBe(
      1800n * PUBLIC.settled.loss + 200n * CONFIDENTIAL.settled.loss,
    );
  });

  it("Given transfers to fresh addresses (each token account's rent the recipient can keep), Then the first whose loss would pass 1 SOL is refused, the day never counts more than the budget, and the next day starts afresh", async () => {
    const start = Date.parse("2026-03-02T09:00:00Z");
    const { refusals } = await send({
      start,
      everyMs: 1_000,
      count: 500,
      transfer: () => TO_FRESH_ADDRESS,
      backAfterMs: RECEIPT_BACK_AFTER_MS,
    });
    // 479 fit: 479 x 2,084,080 = 998,274,320; a 480th could lose 2,084,080 more.
    const fitting = Number(SOL / TO_FRESH_ADDRESS.settled.loss);
    expect(refusals).toHaveLength(500 - fitting);
    expect(refusals[0]).toMatch(
      new RegExp(`^#${fitting} reserve_budget_exhausted: .*may lose at most 1000000000`),
    );
    const today = await chargesOf(service, "acct", "2026-03-02");
    expect(today.lost).toBe(BigInt(fitting) * TO_FRESH_ADDRESS.settled.loss);
    expect(today.lost + today.lossReserved).toBeLessThanOrEqual(SOL);

    now = Date.parse("2026-03-03T00:00:00Z");
    const reservation = await reserveLamports(service, "acct", TO_FRESH_ADDRESS.reserved);
    expect(reservation.day).toBe("2026-03-03");
  });

  it("Given receipts that never come back, Then transfers go on until 5 SOL is advanced and the next is refused naming the advance cap, having lost only fees", async () => {
    const { refusals, mostAdvanced } = await send({
      start: Date.parse("2026-03-02T09:00:00Z"),
      everyMs: 1_000,
      count: 3000,
      transfer: () => PUBLIC,
      backAfterMs: null,
    });
    const fitting = Number((5n * SOL) / RECEIPT_RENT);
    expect(refusals).toHaveLength(3000 - fitting);
    expect(refusals[0]).toMatch(
      new RegExp(`^#${fitting} reserve_budget_exhausted: .*advances at most 5000000000`),
    );
    expect(mostAdvanced).toBe(BigInt(fitting) * RECEIPT_RENT);
    expect((await chargesOf(service, "acct", "2026-03-02")).lost).toBe(BigInt(fitting) * PUBLIC.settled.loss);
  });

  it("Given reservations made at once, Then together they never pass either bound, and a refused one leaves nothing reserved", async () => {
    now = Date.parse("2026-03-02T09:00:00Z");
    const small = {
      db,
      clock: () => now,
      config: { reserveDailyBudgetLamports: 10_000_000, reserveAdvanceCapLamports: 5_000_000 },
    };
    // Each asks 2,000,000 of loss and 1,000,000 of advance: the loss bound admits five, the cap five.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        reserveLamports(small, "acct", { loss: 2_000_000n, advance: 1_000_000n }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(5);
    expect(await chargesOf(small, "acct", "2026-03-02")).toEqual({
      lost: 0n,
      lossReserved: 10_000_000n,
      advanced: 0n,
      advanceReserved: 5_000_000n,
    });
    // An advance the cap refuses takes back the loss it reserved in the same transaction.
    await reserveLamports(small, "other", { loss: 0n, advance: 4_500_000n });
    const refused = await reserveLamports(small, "other", { loss: 1_000n, advance: 1_000_000n }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(await chargesOf(small, "other", "2026-03-02")).toEqual({
      lost: 0n,
      lossReserved: 0n,
      advanced: 0n,
      advanceReserved: 4_500_000n,
    });
  });
});
