/**
 * Transfers whose funds-moving transaction landed at `processed` and then vanished (a background
 * job, registered at import; api/src/jobs.ts imports this module). The request marks a transfer
 * `submitted` once its transaction is seen at `processed` (the fast answer); the indexer settles it
 * from the program's event at `confirmed`. A `processed` transaction can still be dropped (its fork
 * abandoned): then nothing confirms it and, without this job, the transfer would stay `pending`.
 *
 * The chain's history is the truth. A `submitted` transfer older than the reconcile threshold
 * (`TRANSFER_RECONCILE_AFTER_SECONDS`) whose request has ended (no live lease, in-flight.ts) and
 * whose signature the cluster does not know at any commitment is watched; if the cluster still
 * does not know it once the threshold has passed again — longer than a blockhash lives, and the
 * transaction was signed before the watch began, so it can no longer land — the transfer is
 * `failed` (`dropped`, `transfer.failed`). Signature statuses are read at or after every slot the
 * port saw (rpc-chain.ts), so a lagging node cannot make a landed transfer look dropped. A known
 * signature is the indexer's to settle; nothing is ever resubmitted here (the amount lived only in
 * the request's memory). A transfer the chain later reverts after `confirmed` is the indexer's
 * finality check's (`reverted`, at `finalized`).
 */
import { markFailed } from "@cpay/ledger";
import { registerLeaderJob } from "../coordination/background-jobs";
import type { ServiceContext } from "../core/service-context";
import { isInFlight } from "./in-flight";
import { RECONCILE_AFTER_MS } from "./recover-submissions";
import { staleTransfers } from "./stale-transfers";

/** `failure_code` of a transfer whose landed transaction the cluster dropped before `confirmed`. */
export const DROPPED = "dropped";
const EVERY_MS = 2_000;
const BATCH = 100;

/** Per service: when each watched transfer's signature was first found unknown. */
const unknownSince = new WeakMap<ServiceContext, Map<string, number>>();

/** One pass over `submitted` transfers written before `now - afterMs` (see the module doc). */
export async function reconcileDroppedTransfers(
  service: ServiceContext,
  options: { readonly afterMs?: number; readonly now?: () => number } = {},
): Promise<void> {
  const afterMs = options.afterMs ?? RECONCILE_AFTER_MS;
  const now = options.now ?? Date.now;
  const cutoff = new Date(now() - afterMs).toISOString();
  const rows = await staleTransfers(service, "submitted", cutoff, BATCH);
  const watched = unknownSince.get(service) ?? new Map<string, number>();
  unknownSince.set(service, watched);
  const live = new Set(rows.map((row) => row.id));
  for (const id of watched.keys()) if (!live.has(id)) watched.delete(id);
  const judged = rows.filter((row) => row.txSignature !== null);
  if (judged.length === 0) return;
  const statuses = await service.chain.getSignatureStatuses(judged.map((row) => row.txSignature as string));
  for (const [index, row] of judged.entries()) {
    if (statuses[index] !== null && statuses[index] !== undefined) {
      watched.delete(row.id);
      continue;
    }
    if (await isInFlight(service, row.id)) continue;
    const since = watched.get(row.id);
    if (since === undefined) {
      watched.set(row.id, now());
      continue;
    }
    if (now() - since < afterMs) continue;
    watched.delete(row.id);
    service.logger.warn(
      { transfer_id: row.id, signature: row.txSignature },
      "transfer's transaction was dropped after processed and can no longer land; failed",
    );
    await markFailed(service, row.id, { from: "submitted", failureCode: DROPPED, fireEvent: true });
  }
}

registerLeaderJob({
  name: "recover-dropped",
  everyMs: EVERY_MS,
  pass: (service) =>
    reconcileDroppedTransfers(service, {
      afterMs: service.config.transferReconcileAfterMs ?? RECONCILE_AFTER_MS,
    }),
  failure: "recovering dropped transfers failed",
});
