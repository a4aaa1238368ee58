/**
 * Crash recovery of submissions (a background job, registered at import; api/src/jobs.ts imports
 * this module). A `submitting` transfer older than `TRANSFER_RECONCILE_AFTER_SECONDS` (default
 * RECONCILE_AFTER_MS) that no request of any process is still making (no live `transfer:<id>` lease,
 * in-flight.ts) belongs to a process that died mid-submission. What landed is found by transfer id
 * (find-landed-transfer.ts): executed -> `submitted`, held -> `held` with its hold,
 * nothing -> `failed` (`not_landed`; no funds moved). Nothing is ever resubmitted, so recovery can
 * neither lose nor duplicate a transfer. The threshold outlives a blockhash (150 blocks, ~60-90 s on
 * Solana), so a transaction of a dead process can no longer land once its row is judged.
 *
 * Confirmation is not this job's: the indexer is the one writer of `confirmed` (it reads the
 * program's events at `confirmed` commitment, with the block's time), for the API's transfers and
 * for those agents sign themselves alike.
 */

import { markFailed, markHeld, markSubmitted, NOT_LANDED } from "@cpay/ledger";
import { readHold } from "@cpay/sdk/agent-confidential";
import { eq } from "drizzle-orm";
import { registerLeaderJob } from "../coordination/background-jobs";
import type { ServiceContext } from "../core/service-context";
import { findLandedTransfer } from "./find-landed-transfer";
import { isInFlight } from "./in-flight";
import { staleTransfers } from "./stale-transfers";

export const RECONCILE_AFTER_MS = 120_000;
const RECONCILE_EVERY_MS = 1_000;
const BATCH = 100;

/** Reconciles `submitting` transfers written before `now - olderThanMs` (a batch per call). */
export async function reconcileSubmittingTransfers(
  service: ServiceContext,
  options: { readonly olderThanMs?: number } = {},
): Promise<void> {
  const { accounts } = service.db.tables;
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? RECONCILE_AFTER_MS)).toISOString();
  const rows = await staleTransfers(service, "submitting", cutoff, BATCH);
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
      await markSubmitted(service, row.id, {
        signature: landed.signature,
        signatures: [landed.signature],
        usage: { apiKeyId: row.apiKeyId, increment: row.usageIncrement },
      });
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

registerLeaderJob({
  name: "recover-submissions",
  everyMs: RECONCILE_EVERY_MS,
  pass: (service) =>
    reconcileSubmittingTransfers(service, {
      olderThanMs: service.config.transferReconcileAfterMs ?? RECONCILE_AFTER_MS,
    }),
  failure: "recovering submissions failed",
});
