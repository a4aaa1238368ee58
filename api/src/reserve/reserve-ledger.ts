/**
 * The fee reserve's ledger: per account and UTC day, the lamports the reserve is out for it (fees,
 * plus rent deposits not seen coming back; an agent's spend is its owner's). A spend is reserved at
 * its maximum BEFORE the reserve signs anything, by one guarded upsert that adds it only while the
 * day's total stays within `RESERVE_DAILY_BUDGET_LAMPORTS`: concurrent requests serialise on the
 * row (in one process or several on PostgreSQL), so together they never pass the budget. Once a
 * transaction landed the reservation is settled to what it actually cost (`settleReservation`).
 * A row keeps the two apart: `reserved_lamports` (held for transactions not settled yet) and
 * `lamports` (what landed transactions cost); the budget bounds their sum.
 */
import type { Db } from "@cpay/ledger/database";
import { and, eq, sql } from "drizzle-orm";
import { ApiError } from "../http/api-error";
import type { ServiceContext } from "../service-context";

/** Lamports added to one account's day; what settling adjusts. */
export interface Reservation {
  readonly accountId: string;
  readonly day: string;
  readonly lamports: bigint;
}

/**
 * Adds `lamports` to the account's day, or throws `429 reserve_budget_exhausted` and changes nothing
 * when the day's total would pass the budget.
 */
export async function reserveLamports(
  service: ServiceContext,
  accountId: string,
  lamports: bigint,
): Promise<Reservation> {
  const budget = BigInt(service.config.reserveDailyBudgetLamports);
  const day = utcDay(service);
  if (lamports > 0n) {
    const { reserveUsage } = service.db.tables;
    const added = lamportsNumber(lamports);
    const rows =
      lamports > budget
        ? []
        : await service.db.transaction((tx) =>
            tx
              .insert(reserveUsage)
              .values({ accountId, day, lamports: 0, reservedLamports: added })
              .onConflictDoUpdate({
                target: [reserveUsage.accountId, reserveUsage.day],
                set: { reservedLamports: sql`${reserveUsage.reservedLamports} + ${added}` },
                // The guard: the row is only updated (and returned) while the total stays in budget.
                setWhere: sql`${reserveUsage.lamports} + ${reserveUsage.reservedLamports} + ${added} <= ${lamportsNumber(budget)}`,
              })
              .returning({ lamports: reserveUsage.lamports }),
          );
    if (rows.length === 0) {
      const spent = await spentOn(service, accountId, day);
      throw new ApiError(
        "reserve_budget_exhausted",
        `the service's fee reserve pays at most ${budget} lamports of fees and rent a day for this account; ${spent} are spent or reserved today (UTC ${day}) and this needs up to ${lamports}; nothing was signed`,
      );
    }
  }
  return { accountId, day, lamports };
}

/**
 * Settles `reservation` to `actual` (what the transactions it covered cost the reserve, rent that
 * came back in them already taken off): the reservation leaves `reserved_lamports` and `actual`
 * joins `lamports`, which a return never takes below zero — so the day's total never drops below
 * what other requests still hold reserved.
 */
export async function settleReservation(
  service: ServiceContext,
  reservation: Reservation,
  actual: bigint,
): Promise<void> {
  if (reservation.lamports === 0n && actual === 0n) return;
  await service.db.transaction((tx) => settleReservationIn(service, tx, reservation, actual));
}

/** `settleReservation` inside an open transaction (one that also records why it settles). */
export async function settleReservationIn(
  service: ServiceContext,
  tx: Db,
  reservation: Reservation,
  actual: bigint,
): Promise<void> {
  if (reservation.lamports === 0n && actual === 0n) return;
  const { reserveUsage } = service.db.tables;
  const cost = lamportsNumber(actual);
  const released = lamportsNumber(reservation.lamports);
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
        reservedLamports: sql`${reserveUsage.reservedLamports} - ${released}`,
      },
    });
}

/**
 * Takes rent the reserve got back later (a receipt closed 1,000 slots after its transfer) off the
 * account's day, never below zero: what the reserve is out for an account is rent not seen coming
 * back, so a return seen on chain ends its count. Credited to the day it came back.
 */
export async function creditReturnedRent(
  service: ServiceContext,
  accountId: string,
  lamports: bigint,
): Promise<void> {
  if (lamports <= 0n) return;
  await settleReservation(service, { accountId, day: utcDay(service), lamports: 0n }, -lamports);
}

/** A `reserve_budget_exhausted` refusal behind `error` (an SDK step wraps what its signer threw). */
export function reserveRefusalIn(error: unknown): ApiError | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof ApiError && cause.code === "reserve_budget_exhausted") return cause;
    cause = cause.cause;
  }
  return null;
}

/** The account's total of `day`, settled and reserved (0 when it spent nothing). */
export async function spentOn(service: ServiceContext, accountId: string, day: string): Promise<bigint> {
  const { reserveUsage } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select({ lamports: reserveUsage.lamports, reserved: reserveUsage.reservedLamports })
      .from(reserveUsage)
      .where(and(eq(reserveUsage.accountId, accountId), eq(reserveUsage.day, day))),
  );
  return BigInt(row?.lamports ?? 0) + BigInt(row?.reserved ?? 0);
}

/** The service clock's UTC day, `YYYY-MM-DD`. */
export function utcDay(service: ServiceContext): string {
  return new Date(service.clock()).toISOString().slice(0, 10);
}

/** Lamports as the integer column stores them (exact: every lamport amount is below 2^53). */
function lamportsNumber(lamports: bigint): number {
  if (lamports > BigInt(Number.MAX_SAFE_INTEGER) || lamports < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${lamports} lamports do not fit the ledger`);
  }
  return Number(lamports);
}
