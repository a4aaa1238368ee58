/**
 * A self-custody agent's daily allowance of what the reserve may be out for its relayed
 * transactions (`RELAY_DAILY_FEE_CAP_LAMPORTS`, per UTC day), beside its owner's reserve budget
 * (reserve/reserve-charges.ts). A request reserves the MOST its transactions can cost the reserve —
 * fees plus every deposit they can make (reserve/spend-bound.ts) — before anything is co-signed, by
 * one guarded upsert that adds it only while the day's total stays within the cap, so concurrent
 * requests (in one process or several on PostgreSQL) never pass it together.
 *
 * Once a transaction landed, its reservation is settled to what the fee payer's balance actually
 * changed in it (`chargeRelaySpend` with the difference): a deposit that came back in the same
 * transaction (contexts and the staging buffer closed to the fee payer in a confidential
 * transfer's final transaction) takes it off again, and a transaction never sent gives its
 * reservation back. Rent is counted as spent until it is seen coming back.
 */
import { sql } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { utcDay } from "../reserve/reserve-charges";

export async function reserveRelayFees(
  service: ServiceContext,
  agentAccountId: string,
  lamports: bigint,
): Promise<void> {
  const cap = BigInt(service.config.relayDailyFeeCapLamports);
  const day = utcDay(service);
  const { relayFeeUsage } = service.db.tables;
  const added = Number(lamports);
  const rows =
    lamports > cap
      ? []
      : await service.db.transaction((tx) =>
          tx
            .insert(relayFeeUsage)
            .values({ agentAccountId, day, lamports: added })
            .onConflictDoUpdate({
              target: [relayFeeUsage.agentAccountId, relayFeeUsage.day],
              set: { lamports: sql`${relayFeeUsage.lamports} + ${added}` },
              // The guard: updated (and returned) only while the total stays within the cap.
              setWhere: sql`${relayFeeUsage.lamports} + ${added} <= ${Number(cap)}`,
            })
            .returning({ lamports: relayFeeUsage.lamports }),
        );
  if (rows.length === 0) {
    throw new ApiError(
      "relay_fee_cap_reached",
      `the service pays at most ${cap} lamports of fees and rent a day for this agent (UTC ${day}); this request could cost up to ${lamports}; nothing was signed`,
    );
  }
}

/**
 * Moves the agent's day by `lamports`: what a landed transaction cost beyond its reservation (or,
 * negative, what it cost less, rent that came back included).
 */
export async function chargeRelaySpend(
  service: ServiceContext,
  agentAccountId: string,
  lamports: bigint,
): Promise<void> {
  if (lamports === 0n) return;
  const day = utcDay(service);
  const { relayFeeUsage } = service.db.tables;
  const change = Number(lamports);
  await service.db.transaction((tx) =>
    tx
      .insert(relayFeeUsage)
      .values({ agentAccountId, day, lamports: change })
      .onConflictDoUpdate({
        target: [relayFeeUsage.agentAccountId, relayFeeUsage.day],
        set: { lamports: sql`${relayFeeUsage.lamports} + ${change}` },
      }),
  );
}
