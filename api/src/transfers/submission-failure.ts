/**
 * What a failed submission means for the transfer and the caller. Three outcomes:
 * - `refused`: nothing was sent that could move funds, for a reason the caller can act on (a policy
 *   rule, the balance, the recipient): the transfer is `failed` and the answer is that 4xx;
 * - `not_sent`: the chain refused or dropped a transaction before the funds moved: the transfer is
 *   `failed` (`transfer.failed` fires) and the answer is `503 chain_unavailable`; a transaction
 *   that can never land (its blockhash expired first, judged at or after every slot the port saw:
 *   certain, not a guess) is this too, `failure_code` `blockhash_expired`, once resubmission
 *   (resubmission.ts) gave up; an unproved expiry of an agent's confidential transfer
 *   (NeverLandedUnproved) is not: it is unknown, below;
 * - null: the outcome is unknown (the error is not one whose meaning is certain, or the cluster could
 *   not be reached): the transfer stays `submitting` and the crash-recovery pass settles it from the
 *   chain (recover-submissions.ts); the answer is the error's (`503 chain_unavailable` when unreachable).
 */
import { isNeverLanded } from "@cpay/sdk/chain";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { ChainFailure, ExpiredBeforeLanding, ProgramRefusal } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";
import { isChainUnavailable } from "../core/chain-unavailable";
import { reserveRefusalIn } from "../reserve/reserve-charges";
import { policyRefusalOf } from "./policy-refusal";

export interface SubmissionFailure {
  readonly kind: "refused" | "not_sent";
  /** What `failure_code` records: the policy rule, or the error code. */
  readonly failureCode: string;
  readonly answer: ApiError;
}

/** Classifies `error` thrown while submitting a transfer (see the module doc). */
export function classifySubmissionFailure(error: unknown): SubmissionFailure | null {
  // An unreachable cluster says nothing about what landed: the recovery pass decides from the chain.
  if (isChainUnavailable(error)) return null;
  // The fee reserve refused to sign (its budget): nothing was signed, so nothing can land.
  const budget = reserveRefusalIn(error);
  if (budget !== null) return refused(budget.code, budget);
  if (error instanceof ExpiredBeforeLanding || isNeverLanded(error)) {
    return notSent(
      "the transfer's transaction did not land before its blockhash expired; nothing moved, retry",
      BLOCKHASH_EXPIRED,
    );
  }
  const refusal = policyRefusalOf(error);
  if (refusal !== null) {
    return refused(refusal.param, new ApiError("policy_violation", refusal.message, refusal.param));
  }
  if (isConfidentialError(error)) {
    switch (error.code) {
      case "insufficient_confidential_balance":
      case "account_not_confidential_ready":
        // A transfer of the same account raced this one past the balance check.
        return refused(
          "insufficient_balance",
          new ApiError(
            "insufficient_balance",
            "the account's confidential balance does not cover the amount",
            "amount",
          ),
        );
      case "recipient_not_confidential_ready":
        return refused(
          "recipient_not_confidential_ready",
          new ApiError(
            "recipient_not_confidential_ready",
            "the recipient's token account cannot receive confidential transfers now; retry with confidential: false",
            "to",
          ),
        );
      case "step_failed":
      case "proof_worker_failed":
        return notSent("the cluster refused or dropped a transaction of the transfer; nothing moved, retry");
      default:
        return null;
    }
  }
  if (error instanceof ProgramRefusal) {
    return notSent(`the program refused the transaction (${error.programError.name}); nothing moved`);
  }
  if (error instanceof ChainFailure && landedOrFailed(error)) {
    return notSent("the cluster refused the transaction; nothing moved, retry");
  }
  return null;
}

/**
 * A `ChainFailure` is certain when the cluster reported an error, or refused the submission; "did
 * not land" right after sending is not (on an RPC cluster it may still land).
 */
function landedOrFailed(error: ChainFailure): boolean {
  return error.err !== null || !error.message.includes("did not land");
}

function refused(failureCode: string, answer: ApiError): SubmissionFailure {
  return { kind: "refused", failureCode, answer };
}

/** `failure_code` of a transfer whose transaction could never land (see the module doc). */
export const BLOCKHASH_EXPIRED = "blockhash_expired";

function notSent(message: string, failureCode = "chain_unavailable"): SubmissionFailure {
  return {
    kind: "not_sent",
    failureCode,
    answer: new ApiError("chain_unavailable", message),
  };
}
