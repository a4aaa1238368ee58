/**
 * Resubmission of a transfer whose transaction could never land (dropped on the way and not
 * re-sent in time, or its blockhash expired before a leader took it: `isNeverLanded`, judged at or
 * after every slot the chain port saw, so a lagging node cannot fake it). The transfer is signed
 * again with a fresh blockhash under the same transfer id, up to MAX_SUBMISSION_ATTEMPTS in all.
 *
 * It can never pay twice: the funds-moving transaction of every path resubmitted here carries the
 * program's transfer record, whose Receipt `["receipt", signer, transfer_id]` must not exist yet —
 * a second landing of the same transfer id fails as a whole. An agent's confidential transfer
 * carries no record (no room in its final transaction, agent-transfer.ts), so it is never
 * resubmitted: it ends `failed` (`blockhash_expired`) and the caller retries with a new request.
 */
import { isNeverLanded } from "@cpay/sdk/chain";
import { ExpiredBeforeLanding } from "../chain/send-instructions";
import type { ServiceContext } from "../service-context";
import type { Sender } from "./sender";
import type { Submission, TransferPlan } from "./transfer-plan";

/** Submissions of one transfer at most (the first and two resubmissions). */
export const MAX_SUBMISSION_ATTEMPTS = 3;

/** Whether a second landing of `plan` from `sender` is refused on chain (its receipt). */
export function isResubmittable(sender: Sender, plan: TransferPlan): boolean {
  return sender.kind === "owner" || !plan.confidential;
}

/** `submitOnce` again while it fails with a transaction that never landed (see the module doc). */
export async function withResubmission(
  service: ServiceContext,
  input: { readonly sender: Sender; readonly plan: TransferPlan },
  submitOnce: () => Promise<Submission>,
): Promise<Submission> {
  const attempts = isResubmittable(input.sender, input.plan) ? MAX_SUBMISSION_ATTEMPTS : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await submitOnce();
    } catch (error) {
      const neverLanded = error instanceof ExpiredBeforeLanding || isNeverLanded(error);
      if (!neverLanded || attempt >= attempts) throw error;
      service.logger.warn(
        { transfer_id: input.plan.id, attempt },
        "transfer transaction expired before landing; signing it again with a fresh blockhash",
      );
    }
  }
}
