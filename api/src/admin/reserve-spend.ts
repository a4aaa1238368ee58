/**
 * What the fee reserve lost for each account on one UTC day and the rent it has advanced for it and
 * not got back yet (reserve/reserve-charges.ts), for the admin: the account, its loss (settled, plus
 * reserved for transactions in flight), what is left of its daily budget, and its advances now
 * (receipts and holds not closed yet, plus reserved) against the advance cap; biggest losers first,
 * then accounts that only have advances out.
 */
import { desc, eq, gt, sql } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { utcDay } from "../reserve/reserve-charges";

export interface ReserveSpendView {
  readonly day: string;
  readonly budget_lamports: string;
  readonly advance_cap_lamports: string;
  readonly accounts: readonly {
    readonly account_id: string;
    readonly handle: string | null;
    /** Lost on `day` (fees, rent that may not come back), settled and reserved. */
    readonly spent_lamports: string;
    readonly left_lamports: string;
    /** Rent advanced and not back yet, settled and reserved (now, whatever `day`). */
    readonly advanced_lamports: string;
  }[];
}

/** The reserve's spend per account on `day` (default: the service clock's today). */
export async function reserveSpend(
  service: ServiceContext,
  day: string = utcDay(service),
): Promise<ReserveSpendView> {
  const { reserveUsage, reserveAdvances, accounts } = service.db.tables;
  const [losses, advances] = await Promise.all([
    service.db.read((db) =>
      db
        .select({
          accountId: reserveUsage.accountId,
          handle: accounts.handle,
          lamports: reserveUsage.lamports,
          reserved: reserveUsage.reservedLamports,
        })
        .from(reserveUsage)
        .leftJoin(accounts, eq(accounts.id, reserveUsage.accountId))
        .where(eq(reserveUsage.day, day))
        .orderBy(desc(sql`${reserveUsage.lamports} + ${reserveUsage.reservedLamports}`)),
    ),
    service.db.read((db) =>
      db
        .select({
          accountId: reserveAdvances.accountId,
          handle: accounts.handle,
          lamports: reserveAdvances.lamports,
          reserved: reserveAdvances.reservedLamports,
        })
        .from(reserveAdvances)
        .leftJoin(accounts, eq(accounts.id, reserveAdvances.accountId))
        .where(gt(sql`${reserveAdvances.lamports} + ${reserveAdvances.reservedLamports}`, 0)),
    ),
  ]);
  const budget = BigInt(service.config.reserveDailyBudgetLamports);
  const advanced = new Map(
    advances.map((row) => [row.accountId, BigInt(row.lamports) + BigInt(row.reserved)]),
  );
  const row = (accountId: string, handle: string | null, spent: bigint) => ({
    account_id: accountId,
    handle,
    spent_lamports: spent.toString(),
    left_lamports: (spent >= budget ? 0n : budget - spent).toString(),
    advanced_lamports: (advanced.get(accountId) ?? 0n).toString(),
  });
  const listed = new Set(losses.map((loss) => loss.accountId));
  return {
    day,
    budget_lamports: budget.toString(),
    advance_cap_lamports: String(service.config.reserveAdvanceCapLamports),
    accounts: [
      ...losses.map((loss) =>
        row(loss.accountId, loss.handle, BigInt(loss.lamports) + BigInt(loss.reserved)),
      ),
      ...advances
        .filter((advance) => !listed.has(advance.accountId))
        .map((advance) => row(advance.accountId, advance.handle, 0n)),
    ],
  };
}
