/**
 * A hold decision the chain did not carry out -> the answer. Approval re-checks the policy in
 * force (spec 3.3: a tightened policy binds holds too), so a refusal there is
 * `422 policy_violation` naming the rule, as for a transfer; the rest are the window, the balance,
 * a hold someone else already closed, and the cluster itself.
 */
import { agentPolicyErrorOf } from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { ChainFailure, ProgramRefusal } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";
import { reserveRefusalIn } from "../reserve/reserve-charges";
import { policyRefusalOf } from "../transfers/policy-refusal";
import { transactionExpired, transactionNotPending } from "./load-hold";

/** Token-2022's `InsufficientFunds` (TokenError 1), surfacing under the program's instruction. */
const TOKEN_INSUFFICIENT_FUNDS = 1;

/**
 * The answer for `error` thrown while approving or rejecting a hold. `holdStillOpen` says whether
 * the hold account still exists after the failure: when it does not, another decision closed it.
 */
export function decisionFailure(error: unknown, holdStillOpen: boolean): ApiError {
  // The fee reserve refused to sign the decision (the owner's budget): nothing was signed.
  const budget = reserveRefusalIn(error);
  if (budget !== null) return budget;
  const programError = programErrorName(error);
  if (programError === "TransactionExpired") return transactionExpired();
  if (!holdStillOpen) return transactionNotPending("closed on-chain by another decision");
  if (programError === "ConfidentialHoldPolicyTightened") {
    return new ApiError(
      "policy_violation",
      "the owner tightened the agent's per-transaction or daily limit after this transfer was held; reject it and let the agent resubmit",
      "spend_policy",
    );
  }
  const refusal = policyRefusalOf(error);
  if (refusal !== null) return new ApiError("policy_violation", refusal.message, refusal.param);
  if (error instanceof ChainFailure && customCodeOf(error.err) === TOKEN_INSUFFICIENT_FUNDS) {
    return new ApiError(
      "insufficient_balance",
      "the agent's balance no longer covers the held transfer",
      "transaction_id",
    );
  }
  return new ApiError(
    "chain_unavailable",
    "the cluster did not carry out the decision; nothing changed, retry",
  );
}

/** Whether `error` is a failure of the chain (to be answered), not a bug (to be rethrown). */
export function isChainError(error: unknown): boolean {
  return error instanceof ChainFailure || isConfidentialError(error);
}

function programErrorName(error: unknown): string | null {
  if (error instanceof ProgramRefusal) return error.programError.name;
  if (isConfidentialError(error, "step_failed")) return agentPolicyErrorOf(error)?.name ?? null;
  return null;
}

function customCodeOf(err: unknown): number | null {
  const detail = (err as { InstructionError?: [number, { Custom?: number }] } | null)?.InstructionError?.[1];
  return typeof detail?.Custom === "number" ? detail.Custom : null;
}
