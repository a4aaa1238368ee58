/**
 * Resubmission of a transfer whose transaction could never land (dropped on the way and not
 * re-sent in time, or its blockhash expired before a leader took it). The transfer is signed again
 * with a fresh blockhash under the same transfer id, up to MAX_SUBMISSION_ATTEMPTS in all. What
 * makes that safe depends on the path:
 *
 * - **Receipt** (owner transfers, an agent's public transfer): the funds-moving transaction carries
 *   the program's transfer record, whose Receipt `["receipt", signer, transfer_id]` must not exist
 *   yet — a second landing of the same transfer id fails as a whole. The expiry judged by
 *   `isNeverLanded` (at or after every slot the chain port saw) is enough to sign again.
 * - **Finalized proof** (an agent's confidential transfer): its final transaction carries no record
 *   (no room, agent-transfer.ts), so nothing on chain would refuse a second landing. It is signed
 *   again only once the finalized block height is above the expired transaction's
 *   `lastValidBlockHeight` and its signature is still unknown (`proveNeverLanded`): it can then
 *   never land, on any fork. The wait is bounded by the blockhash's lifetime plus finality (~1-2
 *   min on Solana). The whole flow runs again: the failed run closed its proof contexts (or the
 *   final transaction never existed), so new proofs are made against the balance and the day's
 *   spend as they are now. The same proof is needed before its last expiry is recorded `failed`
 *   (`blockhash_expired` says nothing moved). Without it — the wait ran out, the signature turned
 *   out known, or the failure named no transaction to prove — nothing is decided here: the
 *   transfer stays `submitting` for crash recovery, which reads from the chain what landed.
 */
import {
  expiredTransactionIn,
  isNeverLanded,
  type ProveNeverLandedOptions,
  proveNeverLanded,
} from "@cpay/sdk/chain";
import { ExpiredBeforeLanding } from "../chain/send-instructions";
import type { ServiceContext } from "../core/service-context";
import type { Sender } from "./sender";
import type { Submission, TransferPlan } from "./transfer-plan";

/** Submissions of one transfer at most (the first and two resubmissions). */
export const MAX_SUBMISSION_ATTEMPTS = 3;

/** Whether a second landing of `plan` from `sender` is refused on chain (its receipt). */
export function carriesReceipt(sender: Sender, plan: TransferPlan): boolean {
  return sender.kind === "owner" || !plan.confidential;
}

/**
 * A never-landed judgment the finalized proof did not confirm: the outcome is the chain's to tell
 * (crash recovery). Deliberately not a never-landed error, so it is never recorded as "nothing moved".
 */
export class NeverLandedUnproved extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NeverLandedUnproved";
  }
}

/** `submitOnce` again while it fails with a transaction that never landed (see the module doc). */
export async function withResubmission(
  service: ServiceContext,
  input: { readonly sender: Sender; readonly plan: TransferPlan },
  submitOnce: () => Promise<Submission>,
  options: ProveNeverLandedOptions = {},
): Promise<Submission> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await submitOnce();
    } catch (error) {
      const neverLanded = error instanceof ExpiredBeforeLanding || isNeverLanded(error);
      if (!neverLanded) throw error;
      if (!carriesReceipt(input.sender, input.plan)) {
        await requireFinalizedProof(service, input.plan.id, error, options);
      }
      if (attempt >= MAX_SUBMISSION_ATTEMPTS) throw error;
      service.logger.warn(
        { transfer_id: input.plan.id, attempt },
        "transfer transaction expired before landing; signing it again with a fresh blockhash",
      );
    }
  }
}

/** Returns once the expired transaction in `error` provably never lands; throws NeverLandedUnproved otherwise. */
async function requireFinalizedProof(
  service: ServiceContext,
  transferId: string,
  error: unknown,
  options: ProveNeverLandedOptions,
): Promise<void> {
  const expired = expiredTransactionIn(error);
  if (expired === null) {
    throw new NeverLandedUnproved(
      `transfer ${transferId}: a transaction was refused as expired, but none is named to prove it never lands`,
    );
  }
  service.logger.info(
    { transfer_id: transferId, signature: expired.signature },
    "waiting for the finalized proof that the expired transaction can never land",
  );
  const proof = await proveNeverLanded(service.chain, expired, options);
  if (proof !== "never_landed") {
    throw new NeverLandedUnproved(
      proof === "landed"
        ? `transfer ${transferId}: transaction ${expired.signature}, judged expired, is known to the cluster after all`
        : `transfer ${transferId}: the finalized height did not pass transaction ${expired.signature}'s last valid block height in time`,
    );
  }
}
