/**
 * Settlements whose API process died mid-settle (a background job, registered at import;
 * api/src/jobs.ts imports this module). A settle claims its payment `sending` before the reserve
 * signs and records it once it landed (settle-merchant-payment.ts); a process killed in between
 * leaves the claim `sending`, which would keep the merchant's record unwritten and refuse the payment
 * as a duplicate forever. The chain's history is the truth, read here for each `sending` claim:
 *
 * - its transaction landed (at `confirmed`): recorded from the landed transaction by the settle's own
 *   builder (record-settled-payment.ts), or ended `failed` when it landed without paying;
 * - the cluster does not know its signature (or it was never signed) and the claim is older than
 *   the reconcile threshold (`TRANSFER_RECONCILE_AFTER_SECONDS`), which outlives a blockhash (the
 *   payer took its blockhash before the claim was made): it can no longer land, so the claim is
 *   given back and the payer may present the payment again;
 * - otherwise (seen at `processed` only, or still young) it is left for a later pass.
 *
 * Nothing is ever sent here. Every write is guarded on the claim still being `sending` (its end, its
 * release), so a pass racing the request it recovers, or another process's pass, writes once.
 */
import type { AccountRow } from "@cpay/ledger";
import { confirmedTransaction } from "@cpay/sdk/chain";
import { eq } from "drizzle-orm";
import { registerLeaderJob } from "../coordination/background-jobs";
import type { ServiceContext } from "../core/service-context";
import { RECONCILE_AFTER_MS } from "../transfers/recover-submissions";
import { paymentLandedIn } from "./landed-payment";
import { PAYMENT_SHAPES } from "./payment-shapes";
import { recordSettledPayment } from "./record-settled-payment";
import { finishSettlementIn, releaseSettlement, sendingSettlements } from "./settlement-claims";
import { signedRequirement, transferInstructionOf } from "./signed-requirement";
import { X402Refusal } from "./x402-refusal";

const EVERY_MS = 2_000;
const BATCH = 100;

type Claim = Awaited<ReturnType<typeof sendingSettlements>>[number];

/** One pass over the `sending` claims (see the module doc). */
export async function recoverSettlements(
  service: ServiceContext,
  options: { readonly afterMs?: number } = {},
): Promise<void> {
  const cutoff = new Date(service.clock() - (options.afterMs ?? RECONCILE_AFTER_MS)).toISOString();
  const claims = await sendingSettlements(service, BATCH);
  const signed = claims.flatMap((claim) => (claim.signature === null ? [] : [claim.signature]));
  const statuses = signed.length === 0 ? [] : await service.chain.getSignatureStatuses(signed);
  const statusOf = new Map(signed.map((signature, index) => [signature, statuses[index] ?? null]));
  for (const claim of claims) {
    const status = claim.signature === null ? null : (statusOf.get(claim.signature) ?? null);
    if (status === null) {
      if (claim.createdAt < cutoff) await releaseUnlanded(service, claim);
      continue;
    }
    if (status.confirmationStatus !== "processed") await settleLanded(service, claim);
  }
}

/** Gives back a claim whose transaction can no longer land. */
async function releaseUnlanded(service: ServiceContext, claim: Claim): Promise<void> {
  service.logger.warn(
    { account_id: claim.accountId, tx_signature: claim.signature },
    "x402 settlement left sending never landed and can no longer land; its claim is given back",
  );
  await releaseSettlement(service, claim.messageHash);
}

/** Records a claim whose transaction landed, as the settle would have; `failed` if it did not pay. */
async function settleLanded(service: ServiceContext, claim: Claim): Promise<void> {
  const record = await confirmedTransaction(service.chain, claim.signature as string);
  const shape = PAYMENT_SHAPES.find((candidate) => candidate.name === claim.shape);
  const merchant = await accountOf(service, claim.accountId);
  // Not served at `confirmed` yet (a lagging node): a later pass reads it.
  if (record === null || shape === undefined || merchant === undefined) return;
  const transfer = transferInstructionOf(record);
  try {
    const landed = await paymentLandedIn(
      record,
      signedRequirement(service, { merchant, network: claim.network, shape: shape.name, transfer }),
      shape,
      service.feePayer.address,
    );
    const transferId = await recordSettledPayment(service, {
      merchant,
      messageHash: claim.messageHash,
      shape: shape.name,
      transferData: transfer.data,
      landed,
    });
    service.logger.info(
      { account_id: merchant.id, transfer_id: transferId, tx_signature: claim.signature },
      "x402 payment left sending settled from the chain",
    );
  } catch (error) {
    if (!(error instanceof X402Refusal)) throw error;
    service.logger.warn(
      { account_id: merchant.id, tx_signature: claim.signature, reason: error.reason },
      "x402 payment left sending landed without paying; failed",
    );
    await service.db.transaction((tx) =>
      finishSettlementIn(service, tx, claim.messageHash, { status: "failed", transferId: null }),
    );
  }
}

async function accountOf(service: ServiceContext, accountId: string): Promise<AccountRow | undefined> {
  const { accounts } = service.db.tables;
  const [row] = await service.db.read((db) => db.select().from(accounts).where(eq(accounts.id, accountId)));
  return row;
}

registerLeaderJob({
  name: "recover-x402-settlements",
  everyMs: EVERY_MS,
  pass: (service) =>
    recoverSettlements(service, {
      afterMs: service.config.transferReconcileAfterMs ?? RECONCILE_AFTER_MS,
    }),
  failure: "recovering x402 settlements failed",
});
