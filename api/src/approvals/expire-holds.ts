/**
 * The expiry job (registered at import; api/src/jobs.ts imports this module), every
 * EXPIRY_INTERVAL_MS: holds still `pending_approval` whose window has passed by the
 * cluster's clock are closed on-chain (`pending_close_expired`; a confidential hold's contexts
 * too; rent back to the fee reserve that paid it) and recorded `expired`, their transfer `failed`
 * (`failure_code` `expired`, `transfer.failed`). A hold already gone from the chain is recorded as
 * whatever closed it (closing-outcome.ts). Each transaction takes the same turn as approve and
 * reject, so the job never races a decision of this process.
 */

import type { HoldRow } from "@cpay/ledger";
import { recordDecision } from "@cpay/ledger";
import { buildPendingCloseExpiredInstruction, getPendingTransactionDecoder } from "@cpay/sdk";
import { closeExpiredHold, type Hold, readHold } from "@cpay/sdk/agent-confidential";
import { type Address, address } from "@solana/kit";
import { and, asc, eq, lte } from "drizzle-orm";
import { runExclusively } from "../agents/run-exclusively";
import { sendInstructions } from "../chain/send-instructions";
import { registerLeaderJob } from "../coordination/background-jobs";
import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";
import { reservePayer, withReserveSpend } from "../reserve/reserve-scope";
import { closingOutcome } from "./closing-outcome";
import { clusterNowIso } from "./cluster-time";
import { decisionTurn } from "./decide-hold";

export const EXPIRY_INTERVAL_MS = 1_000;
const BATCH = 50;

/** One pass: expires every hold whose window has passed (a batch per call). */
export async function expireHolds(service: ServiceContext): Promise<void> {
  const { holds } = service.db.tables;
  const now = await clusterNowIso(service);
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(holds)
      .where(and(eq(holds.status, "pending_approval"), lte(holds.expiresAt, now)))
      .orderBy(asc(holds.expiresAt))
      .limit(BATCH),
  );
  for (const row of rows) {
    try {
      await runExclusively(service, decisionTurn(row.id), () => expireOne(service, row.id));
    } catch (error) {
      // One hold the cluster will not close yet must not stop the others; the next pass retries.
      service.logger.warn(
        { transaction_id: row.id, err: describeUnexpected(error) },
        "expiring a hold failed; retrying",
      );
    }
  }
}

async function expireOne(service: ServiceContext, transactionId: string): Promise<void> {
  const { holds, accounts } = service.db.tables;
  const [row] = await service.db.read((db) => db.select().from(holds).where(eq(holds.id, transactionId)));
  // Decided while this pass waited for its turn.
  if (row === undefined || row.status !== "pending_approval") return;
  const [agent] = await service.db.read((db) =>
    db.select().from(accounts).where(eq(accounts.id, row.agentAccountId)),
  );
  if (agent === undefined) return;
  const pending = address(row.holdAddress);
  const hold = await readHold(service.chain, pending);
  if (hold !== null) {
    // Closing returns the hold's rent; its fee is the owner's, like the hold it ends.
    const signature = await withReserveSpend(service, row.ownerAccountId, () =>
      closeOnChain(service, pending, hold),
    );
    await recordDecision(service, row, agent, { status: "expired", signature });
    return;
  }
  const closed = await closingOutcome(service, pending);
  if (closed === null) {
    logUnexplained(service, row);
    return;
  }
  await recordDecision(service, row, agent, closed);
}

async function closeOnChain(service: ServiceContext, pending: Address, hold: Hold): Promise<string> {
  if (hold.confidential) {
    return (await closeExpiredHold(service.chain, { pending, payer: reservePayer(service) })).signature;
  }
  const account = await service.chain.getAccount(pending);
  if (account === null) throw new Error(`the hold ${pending} disappeared`);
  return sendInstructions(service, [
    buildPendingCloseExpiredInstruction({
      pending,
      hold: getPendingTransactionDecoder().decode(account.data),
      programAddress: address(service.chain.programId),
    }),
  ]);
}

/**
 * A hold gone from the chain with no closing event in its history (a pruned history on an RPC
 * cluster): whether funds moved cannot be told, so the row is left as it is rather than claim
 * "nothing moved", and said once per process.
 */
const unexplained = new Set<string>();
function logUnexplained(service: ServiceContext, row: HoldRow): void {
  if (unexplained.has(row.id)) return;
  unexplained.add(row.id);
  service.logger.warn(
    { transaction_id: row.id, hold_address: row.holdAddress },
    "an expired hold is gone from the chain and its history does not say how it closed; left pending",
  );
}

registerLeaderJob({
  name: "expire-holds",
  everyMs: EXPIRY_INTERVAL_MS,
  pass: expireHolds,
  failure: "expiring holds failed",
});
