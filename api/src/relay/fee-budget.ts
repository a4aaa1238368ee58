/**
 * A self-custody agent's daily allowance of fees the reserve pays for its relayed transactions
 * (`RELAY_DAILY_FEE_CAP_LAMPORTS`, per UTC day). The fees of a request are reserved — added to the
 * day's total, or the request refused with nothing signed — before anything is co-signed, in one
 * database transaction, so concurrent requests cannot overspend it together. A request that fails
 * after reserving keeps its reservation: the reserve may have paid for what landed.
 *
 * Rent is charged too, once a transaction landed, by what the fee payer's balance actually changed
 * beyond the fee (`chargeRelaySpend`): a deposit (a recipient's token account, a receipt, a hold,
 * proof contexts, a staging buffer) adds to the day's total, and rent coming back (contexts and the
 * buffer close to the fee payer in a confidential transfer's final transaction) takes it off again.
 * So the total is what the reserve is out for this agent: fees plus rent not (yet) returned, exact
 * whatever the instructions were, and the next request is refused once it passes the cap. A
 * confidential transfer deposits ~0.026 SOL of context rent for a moment, which the default cap
 * (0.1 SOL) leaves room for.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { ApiError } from "../http/api-error";
import type { ServiceContext } from "../service-context";

export async function reserveRelayFees(
  service: ServiceContext,
  agentAccountId: string,
  lamports: bigint,
): Promise<void> {
  const cap = BigInt(service.config.relayDailyFeeCapLamports);
  await service.db.transaction(async (tx) => {
    // One atomic upsert: concurrent requests serialise on the row, and the total is checked after
    // adding; over the cap, throwing rolls the addition back.
    const { day, total } = await addToToday(service, tx, agentAccountId, lamports);
    if (total > cap) {
      throw new ApiError(
        "relay_fee_cap_reached",
        `the service pays at most ${cap} lamports of fees a day for this agent; ${total - lamports} are spent today (UTC ${day}) and this request needs ${lamports}`,
      );
    }
  });
}

/**
 * Adds what a landed transaction cost the reserve beyond its fee to the day's total: rent deposited,
 * or (negative) rent returned, so the total stays what the reserve is out for the agent.
 */
export async function chargeRelaySpend(
  service: ServiceContext,
  agentAccountId: string,
  lamports: bigint,
): Promise<void> {
  if (lamports === 0n) return;
  await service.db.transaction((tx) => addToToday(service, tx, agentAccountId, lamports));
}

/** Adds `lamports` to the agent's total of the service clock's UTC day; the day and the new total. */
async function addToToday(
  service: ServiceContext,
  tx: Db,
  agentAccountId: string,
  lamports: bigint,
): Promise<{ readonly day: string; readonly total: bigint }> {
  const day = new Date(service.clock()).toISOString().slice(0, 10);
  const { relayFeeUsage } = service.db.tables;
  const [row] = await tx
    .insert(relayFeeUsage)
    .values({ agentAccountId, day, lamports: Number(lamports) })
    .onConflictDoUpdate({
      target: [relayFeeUsage.agentAccountId, relayFeeUsage.day],
      set: { lamports: sql`${relayFeeUsage.lamports} + ${Number(lamports)}` },
    })
    .returning({ lamports: relayFeeUsage.lamports });
  return { day, total: BigInt(row?.lamports ?? 0) };
}
