/**
 * Errors of the agent's confidential path. They are `ConfidentialError`s (one error type, one code
 * table for the API); a broken limit also says which limit, so a caller can tell "ask for a hold"
 * (per-transaction above the HITL threshold is not an error: it holds) from "wait until tomorrow".
 */
import { SubmissionRejected } from "../chain/chain-types";
import { ConfidentialError, isConfidentialError } from "../confidential/errors";
import { type AgentPolicyErrorInfo, getAgentPolicyErrorFromTransactionError } from "../program/errors";
import { POLICY_REFUSALS, type PolicyRefusal, policyRefusalByName } from "../program/policy-refusals";

/** The policy limit a spend would break. */
export type PolicyLimit = "per_transaction" | "daily";

/** `policy_limit_exceeded`: thrown before any proof work, so nothing was submitted. */
export class PolicyLimitExceededError extends ConfidentialError {
  readonly limit: PolicyLimit;

  constructor(limit: PolicyLimit, message: string) {
    super("policy_limit_exceeded", `${limit} limit: ${message}`);
    this.name = "PolicyLimitExceededError";
    this.limit = limit;
  }
}

export function policyLimitExceeded(limit: PolicyLimit, message: string): PolicyLimitExceededError {
  return new PolicyLimitExceededError(limit, message);
}

/** True when `error` is a broken policy limit (the given one, when named). */
export function isPolicyLimitExceeded(
  error: unknown,
  limit?: PolicyLimit,
): error is PolicyLimitExceededError {
  return error instanceof PolicyLimitExceededError && (limit === undefined || error.limit === limit);
}

/**
 * The agent-policy program error behind a failed step (e.g. `LimitProofMismatch`), or null: digs
 * through `ConfidentialError.cause` to the refused submission's or landed transaction's error.
 */
export function agentPolicyErrorOf(error: unknown): AgentPolicyErrorInfo | null {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause !== undefined && cause !== null; depth++) {
    if (cause instanceof SubmissionRejected)
      return getAgentPolicyErrorFromTransactionError(cause.outcome?.err);
    if (cause instanceof Error) {
      cause = cause.cause;
      continue;
    }
    return getAgentPolicyErrorFromTransactionError(cause);
  }
  return null;
}

/**
 * The policy rule behind an error of an agent's spend through the SDK, or null when it is not a
 * policy decision: a broken limit found before proving (`PolicyLimitExceededError`), an open
 * confidential hold (`confidential_hold_open`), or a step whose transaction the program refused
 * (`step_failed`, the program error dug out of its cause).
 */
export function agentSpendRefusalOf(error: unknown): PolicyRefusal | null {
  if (error instanceof PolicyLimitExceededError) {
    return error.limit === "daily"
      ? POLICY_REFUSALS.DailyLimitExceeded
      : POLICY_REFUSALS.PerTransactionLimitExceeded;
  }
  if (isConfidentialError(error, "confidential_hold_open")) return POLICY_REFUSALS.ConfidentialHoldOpen;
  if (isConfidentialError(error, "step_failed")) {
    const programError = agentPolicyErrorOf(error);
    return programError === null ? null : policyRefusalByName(programError.name);
  }
  return null;
}
