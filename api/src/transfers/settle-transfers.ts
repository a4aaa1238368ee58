/**
 * The transfers' background job (registered at import; api/src/jobs.ts imports this module), every
 * SETTLE_INTERVAL_MS:
 * 1. settles `submitted` transfers by their funds-moving signature: at `confirmed` commitment ->
 *    `confirmed` with `confirmed_at` and `transfer.confirmed`; a transaction that failed -> `failed`
 *    with `transfer.failed` (spec 3.1);
 * 2. reconciles `submitting` transfers older than `TRANSFER_RECONCILE_AFTER_SECONDS` (default
 *    RECONCILE_AFTER_MS) that no request of any
 *    process is still making (no live `transfer:<id>` lease, in-flight.ts): the process that wrote
 *    them died mid-submission. What landed is
 *    found by transfer id (find-landed-transfer.ts): executed -> `submitted` (then step 1), held ->
 *    `held` with its agent transaction, nothing -> `failed` (`not_landed`; no funds moved). Nothing is
 *    ever resubmitted, so recovery can neither lose nor duplicate a transfer.
 * The threshold outlives a blockhash (150 blocks, ~60-90 s on Solana), so a transaction of a dead
 * process can no longer land once its row is judged.
 */

import type { TransferRow } from "@cpay/ledger";
import { markConfirmed, markFailed, markHeld, markSubmitted, NOT_LANDED } from "@cpay/ledger";
import { readHold } from "@cpay/sdk/agent-confidential";
import type { SignatureStatus } from "@cpay/sdk/chain";
import { meetsCommitment } from "@cpay/sdk/chain";
import { and, asc, eq, lt } from "drizzle-orm";
import { registerBackgroundJob } from "../background";
import { jobLeadership } from "../coordination/job-leader";
import { describeUnexpected } from "../http/error-handler";
import type { ServiceContext } from "../service-context";
import { findLandedTransfer } from "./find-landed-transfer";
import { isInFlight } from "./in-flight";

export const SETTLE_INTERVAL_MS = 200;
export const RECONCILE_AFTER_MS = 120_000;
const RECONCILE_EVERY_MS = 1_000;
const BATCH = 100;

/**
 * Settles one `submitted` transfer if its transaction's status allows; returns the row as it is now.
 * `known` is its status when already read (a batch's statuses are read in one call).
 */
export async function settleSubmittedTransfer(
  service: ServiceContext,
  row: TransferRow,
  known?: SignatureStatus | null,
): Promise<TransferRow> {
  if (row.phase !== "submitted" || row.txSignature === null) return row;
  const status = known === undefined ? await service.chain.getSignatureStatus(row.txSignature) : known;
  if (status === null) return row;
  if (status.err !== null) {
    return markFailed(service, row.id, {
      from: "submitted",
      failureCode: "transaction_failed",
      fireEvent: true,
    });
  }
  if (!meetsCommitment(status.confirmationStatus, "confirmed")) return row;
  return markConfirmed(service, row.id);
}

/** Step 1 for every `submitted` transfer (a batch per call). */
export async function settleSubmittedTransfers(service: ServiceContext): Promise<void> {
  const { transfers } = service.db.tables;
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(transfers)
      .where(eq(transfers.phase, "submitted"))
      .orderBy(asc(transfers.createdAt))
      .limit(BATCH),
  );
  const signed = rows.filter((row) => row.txSignature !== null);
  const statuses = await service.chain.getSignatureStatuses(signed.map((row) => row.txSignature as string));
  for (const [index, row] of signed.entries())
    await settleSubmittedTransfer(service, row, statuses[index] ?? null);
}

/** Step 2: reconciles `submitting` transfers written before `now - olderThanMs`. */
export async function reconcileSubmittingTransfers(
  service: ServiceContext,
  options: { readonly olderThanMs?: number } = {},
): Promise<void> {
  const { transfers, accounts } = service.db.tables;
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? RECONCILE_AFTER_MS)).toISOString();
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(transfers)
      .where(and(eq(transfers.phase, "submitting"), lt(transfers.createdAt, cutoff)))
      .orderBy(asc(transfers.createdAt))
      .limit(BATCH),
  );
  for (const row of rows) {
    if (await isInFlight(service, row.id)) continue;
    const [sender] = await service.db.read((db) =>
      db.select().from(accounts).where(eq(accounts.id, row.accountId)),
    );
    if (sender === undefined) continue;
    const landed = await findLandedTransfer(service, row, sender);
    if (landed === null) {
      await markFailed(service, row.id, { from: "submitting", failureCode: NOT_LANDED, fireEvent: true });
      continue;
    }
    if (landed.outcome === "executed") {
      const submitted = await markSubmitted(service, row.id, {
        signature: landed.signature,
        signatures: [landed.signature],
        usage: { apiKeyId: row.apiKeyId, increment: row.usageIncrement },
      });
      await settleSubmittedTransfer(service, submitted);
      continue;
    }
    const hold = await readHold(service.chain, landed.pending);
    if (hold === null) {
      // The hold was closed on chain (expired and closed by anyone) before recovery ran: nothing moved.
      await markFailed(service, row.id, { from: "submitting", failureCode: "expired", fireEvent: true });
      continue;
    }
    await markHeld(service, row.id, {
      agent: sender,
      hold,
      signature: landed.signature,
      signatures: [landed.signature],
    });
  }
}

registerBackgroundJob((service) => {
  const leader = jobLeadership(service.db, service.logger, "settle-transfers");
  let stopped = false;
  let running: Promise<void> | null = null;
  let lastReconcile = 0;
  const pass = async () => {
    await settleSubmittedTransfers(service);
    if (Date.now() - lastReconcile >= RECONCILE_EVERY_MS) {
      lastReconcile = Date.now();
      await reconcileSubmittingTransfers(service, {
        olderThanMs: service.config.transferReconcileAfterMs ?? RECONCILE_AFTER_MS,
      });
    }
  };
  const timer = setInterval(() => {
    if (stopped || running !== null) return;
    running = leader
      .run(() => pass())
      .catch((error: unknown) => {
        service.logger.warn({ err: describeUnexpected(error) }, "settling transfers failed; retrying");
      })
      .finally(() => {
        running = null;
      });
  }, SETTLE_INTERVAL_MS);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    await leader.resign();
  };
});
