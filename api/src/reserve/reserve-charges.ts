/**
 * The fee reserve's charges per account (an agent's charges are its owner's), in two parts (the
 * words are docs/glossary.md's):
 * - its reserve spend, what the reserve LOST for it per UTC day (`reserve_usage`): fees, plus rent
 *   it may not get back (a recipient's token account, proof contexts, agent accounts), net of such
 *   rent that came back — bounded by `RESERVE_DAILY_BUDGET_LAMPORTS`;
 * - its reserve advance, the rent it ADVANCED and has not got back yet (`reserve_advances`):
 *   Receipts and holds, whose rent the program returns only to the reserve (advances.ts) — bounded
 *   by `RESERVE_ADVANCE_CAP_LAMPORTS`, and not per day: it is out until it comes back.
 * So an account's volume is limited by what it makes the reserve lose, not by rent that comes back.
 *
 * A spend is reserved at its maximum BEFORE the reserve signs anything, by guarded upserts (one per
 * part, in one database transaction) that add it only while each total stays within its bound:
 * concurrent requests serialise on the rows (in one process or several on PostgreSQL; always the
 * loss row before the advance row), so together they never pass either bound. Once a transaction
 * landed the reservation is settled to what it actually lost and advanced (`settleReservation`).
 * Each row keeps `reserved_lamports` (held for transactions not settled yet) apart from `lamports`
 * (what landed); the bound is on their sum.
 */
import type { Db } from "@cpay/ledger/database";
import { and, eq, sql } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

/** What charging needs of the service: its database, clock and the two bounds. */
export type ChargesContext = Pick<ServiceContext, "db" | "clock"> & {
  readonly config: Pick<ServiceContext["config"], "reserveDailyBudgetLamports" | "reserveAdvanceCapLamports">;
};

/** Lamports charged to an account: lost (fees, rent that may not come back) and advanced. */
export interface ReserveCharge {
  readonly loss: bigint;
  readonly advance: bigint;
}

export const NO_CHARGE: ReserveCharge = { loss: 0n, advance: 0n };

/** Lamports reserved on one account: the loss on `day`, and the advance. What settling releases. */
export interface Reservation {
  readonly accountId: string;
  readonly day: string;
  readonly lamports: bigint;
  readonly advanceLamports: bigint;
}

/** An account's charges: the day's loss (landed, reserved) and its advances (landed, reserved). */
export interface AccountCharges {
  readonly lost: bigint;
  readonly lossReserved: bigint;
  readonly advanced: bigint;
  readonly advanceReserved: bigint;
}

/** Which bound a reservation did not fit (thrown inside the transaction to roll it back). */
class OverBound extends Error {
  constructor(readonly bound: "loss" | "advance") {
    super(bound);
  }
}

/**
 * Adds `charge` to the account (its loss to today, its advance to what is out), or throws `429
 * reserve_budget_exhausted` and changes nothing when either total would pass its bound.
 */
export async function reserveLamports(
  service: ChargesContext,
  accountId: string,
  charge: ReserveCharge,
): Promise<Reservation> {
  const budget = BigInt(service.config.reserveDailyBudgetLamports);
  const cap = BigInt(service.config.reserveAdvanceCapLamports);
  const day = utcDay(service);
  const { reserveUsage, reserveAdvances } = service.db.tables;
  try {
    if (charge.loss > budget) throw new OverBound("loss");
    if (charge.advance > cap) throw new OverBound("advance");
    if (charge.loss > 0n || charge.advance > 0n) {
      await service.db.transaction(async (tx) => {
        if (charge.loss > 0n) {
          const added = lamportsNumber(charge.loss);
          const rows = await tx
            .insert(reserveUsage)
            .values({ accountId, day, lamports: 0, reservedLamports: added })
            .onConflictDoUpdate({
              target: [reserveUsage.accountId, reserveUsage.day],
              set: { reservedLamports: sql`${reserveUsage.reservedLamports} + ${added}` },
              // The guard: the row is only updated (and returned) while the total stays in budget.
              setWhere: sql`${reserveUsage.lamports} + ${reserveUsage.reservedLamports} + ${added} <= ${lamportsNumber(budget)}`,
            })
            .returning({ lamports: reserveUsage.lamports });
          if (rows.length === 0) throw new OverBound("loss");
        }
        if (charge.advance > 0n) {
          const added = lamportsNumber(charge.advance);
          const rows = await tx
            .insert(reserveAdvances)
            .values({ accountId, lamports: 0, reservedLamports: added })
            .onConflictDoUpdate({
              target: reserveAdvances.accountId,
              set: { reservedLamports: sql`${reserveAdvances.reservedLamports} + ${added}` },
              setWhere: sql`${reserveAdvances.lamports} + ${reserveAdvances.reservedLamports} + ${added} <= ${lamportsNumber(cap)}`,
            })
            .returning({ lamports: reserveAdvances.lamports });
          if (rows.length === 0) throw new OverBound("advance");
        }
      });
    }
  } catch (error) {
    if (!(error instanceof OverBound)) throw error;
    throw await refusal(service, accountId, day, charge, error.bound);
  }
  return { accountId, day, lamports: charge.loss, advanceLamports: charge.advance };
}

async function refusal(
  service: ChargesContext,
  accountId: string,
  day: string,
  charge: ReserveCharge,
  bound: "loss" | "advance",
): Promise<ApiError> {
  const now = await chargesOf(service, accountId, day);
  if (bound === "loss") {
    return new ApiError(
      "reserve_budget_exhausted",
      `the service's fee reserve may lose at most ${service.config.reserveDailyBudgetLamports} lamports of fees and rent not returned a day for this account; ${now.lost + now.lossReserved} are lost or reserved today (UTC ${day}) and this may lose up to ${charge.loss}; nothing was signed`,
    );
  }
  return new ApiError(
    "reserve_budget_exhausted",
    `the service's fee reserve advances at most ${service.config.reserveAdvanceCapLamports} lamports of rent at a time for this account (receipts and holds, returned when they close); ${now.advanced + now.advanceReserved} are advanced or reserved and not back yet, and this needs up to ${charge.advance} more; nothing was signed; retry once receipts have closed (about 1,000 slots after their transfers)`,
  );
}

/**
 * Settles `reservation` to `actual` (what the transactions it covered lost and advanced, rent
 * that came back in them already taken off): the reservation leaves `reserved_lamports` and
 * `actual` joins `lamports`, which a return never takes below zero — rent back on a later day than
 * it left never makes that day's loss negative, and advances back never count below nothing.
 */
export async function settleReservation(
  service: ChargesContext,
  reservation: Reservation,
  actual: ReserveCharge,
): Promise<void> {
  if (isNothing(reservation, actual)) return;
  await service.db.transaction((tx) => settleReservationIn(service, tx, reservation, actual));
}

/** `settleReservation` inside an open transaction (one that also records why it settles). */
export async function settleReservationIn(
  service: Pick<ChargesContext, "db">,
  tx: Db,
  reservation: Reservation,
  actual: ReserveCharge,
): Promise<void> {
  const { reserveUsage, reserveAdvances } = service.db.tables;
  // The loss row before the advance row, as a reservation takes them.
  if (reservation.lamports !== 0n || actual.loss !== 0n) {
    const cost = lamportsNumber(actual.loss);
    await tx
      .insert(reserveUsage)
      .values({
        accountId: reservation.accountId,
        day: reservation.day,
        lamports: Math.max(cost, 0),
        reservedLamports: 0,
      })
      .onConflictDoUpdate({
        target: [reserveUsage.accountId, reserveUsage.day],
        set: {
          lamports: sql`case when ${reserveUsage.lamports} + ${cost} < 0 then 0 else ${reserveUsage.lamports} + ${cost} end`,
          reservedLamports: sql`${reserveUsage.reservedLamports} - ${lamportsNumber(reservation.lamports)}`,
        },
      });
  }
  if (reservation.advanceLamports !== 0n || actual.advance !== 0n) {
    const advanced = lamportsNumber(actual.advance);
    await tx
      .insert(reserveAdvances)
      .values({ accountId: reservation.accountId, lamports: Math.max(advanced, 0), reservedLamports: 0 })
      .onConflictDoUpdate({
        target: reserveAdvances.accountId,
        set: {
          lamports: sql`case when ${reserveAdvances.lamports} + ${advanced} < 0 then 0 else ${reserveAdvances.lamports} + ${advanced} end`,
          reservedLamports: sql`${reserveAdvances.reservedLamports} - ${lamportsNumber(reservation.advanceLamports)}`,
        },
      });
  }
}

/**
 * Takes rent the reserve got back later (a receipt the receipt job closed, ~1,000 slots after its
 * transfer) off what the account has advanced, never below zero. Not tied to a day: a receipt
 * closed after midnight gives back what the day before advanced.
 */
export async function creditReturnedRent(
  service: ChargesContext,
  accountId: string,
  lamports: bigint,
): Promise<void> {
  if (lamports <= 0n) return;
  await settleReservation(
    service,
    { accountId, day: utcDay(service), lamports: 0n, advanceLamports: 0n },
    { loss: 0n, advance: -lamports },
  );
}

/** A `reserve_budget_exhausted` refusal behind `error` (an SDK step wraps what its signer threw). */
export function reserveRefusalIn(error: unknown): ApiError | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof ApiError && cause.code === "reserve_budget_exhausted") return cause;
    cause = cause.cause;
  }
  return null;
}

/** The account's loss on `day` and its advances, landed and reserved (0 where nothing is recorded). */
export async function chargesOf(
  service: Pick<ChargesContext, "db">,
  accountId: string,
  day: string,
): Promise<AccountCharges> {
  const { reserveUsage, reserveAdvances } = service.db.tables;
  const [usage] = await service.db.read((db) =>
    db
      .select({ lamports: reserveUsage.lamports, reserved: reserveUsage.reservedLamports })
      .from(reserveUsage)
      .where(and(eq(reserveUsage.accountId, accountId), eq(reserveUsage.day, day))),
  );
  const [advances] = await service.db.read((db) =>
    db
      .select({ lamports: reserveAdvances.lamports, reserved: reserveAdvances.reservedLamports })
      .from(reserveAdvances)
      .where(eq(reserveAdvances.accountId, accountId)),
  );
  return {
    lost: BigInt(usage?.lamports ?? 0),
    lossReserved: BigInt(usage?.reserved ?? 0),
    advanced: BigInt(advances?.lamports ?? 0),
    advanceReserved: BigInt(advances?.reserved ?? 0),
  };
}

/** The service clock's UTC day, `YYYY-MM-DD`. */
export function utcDay(service: Pick<ChargesContext, "clock">): string {
  return new Date(service.clock()).toISOString().slice(0, 10);
}

function isNothing(reservation: Reservation, actual: ReserveCharge): boolean {
  return (
    reservation.lamports === 0n &&
    reservation.advanceLamports === 0n &&
    actual.loss === 0n &&
    actual.advance === 0n
  );
}

/** Lamports as the integer column stores them (exact: every lamport amount is below 2^53). */
function lamportsNumber(lamports: bigint): number {
  if (lamports > BigInt(Number.MAX_SAFE_INTEGER) || lamports < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${lamports} lamports do not fit a lamports column`);
  }
  return Number(lamports);
}
