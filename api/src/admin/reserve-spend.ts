/**
 * What the fee reserve is out for each account on one UTC day (reserve/reserve-ledger.ts), for the
 * admin: the account, its spend (settled, plus reserved for transactions in flight) and what is left
 * of its daily budget, biggest spenders first.
 */
import { desc, eq, sql } from "drizzle-orm";
import { utcDay } from "../reserve/reserve-ledger";
import type { ServiceContext } from "../service-context";

export interface ReserveSpendView {
  readonly day: string;
  readonly budget_lamports: string;
  readonly accounts: readonly {
    readonly account_id: string;
    readonly handle: string | null;
    readonly spent_lamports: string;
    readonly left_lamports: string;
  }[];
}

/** The reserve's spend per account on `day` (default: the service clock's today). */
export async function reserveSpend(
  service: ServiceContext,
  day: string = utcDay(service),
): Promise<ReserveSpendView> {
  const { reserveUsage, accounts } = service.db.tables;
  const rows = await service.db.read((db) =>
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
  );
  const budget = BigInt(service.config.reserveDailyBudgetLamports);
  return {
    day,
    budget_lamports: budget.toString(),
    accounts: rows.map((row) => {
      const spent = BigInt(row.lamports) + BigInt(row.reserved);
      return {
        account_id: row.accountId,
        handle: row.handle,
        spent_lamports: spent.toString(),
        left_lamports: (spent >= budget ? 0n : budget - spent).toString(),
      };
    }),
  };
}
