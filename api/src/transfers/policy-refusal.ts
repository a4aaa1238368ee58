/**
 * An agent transfer the on-chain spend policy refused -> `422 policy_violation` whose `param` names
 * the rule (a field of the spend policy, spec 2.4). Every limit is enforced by the program; the
 * API never pre-checks one. Refusals reach here in three forms:
 * - `ProgramRefusal` from a transaction the program rejected (public path, send-instructions.ts);
 * - `PolicyLimitExceededError` from the SDK's confidential path, which must know the limits to
 *   build its range proofs and refuses before proving when one is broken (nothing was sent);
 * - a confidential step whose transaction the program rejected (`agentPolicyErrorOf` digs out the
 *   program error), and the SDK's `confidential_hold_open`.
 * Messages name the rule, never an amount, a limit value or a balance.
 */
import { agentPolicyErrorOf, PolicyLimitExceededError } from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { ProgramRefusal } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";

export interface PolicyRefusal {
  /** The spend-policy field (or agent property) that refused the transfer. */
  readonly param: string;
  readonly message: string;
}

const PER_TRANSACTION: PolicyRefusal = {
  param: "per_transaction_limit_usdg",
  message: "the amount is above the agent's per-transaction limit",
};
const DAILY: PolicyRefusal = {
  param: "daily_limit_usdg",
  message: "the transfer would take the agent over its daily limit for today (UTC day)",
};
const HOLD_OPEN: PolicyRefusal = {
  param: "confidential",
  message:
    "the agent has a confidential transfer waiting for its owner's approval; its other outgoing transfers wait until that one is approved, rejected or expires",
};

/** The program's error names (IDL) that are policy decisions, and what they mean to a caller. */
const BY_PROGRAM_ERROR = {
  PerTransactionLimitExceeded: PER_TRANSACTION,
  DailyLimitExceeded: DAILY,
  RecipientNotAllowed: {
    param: "allowed_recipients",
    message: "the recipient is not in the agent's allowed_recipients",
  },
  MintNotAllowed: { param: "assets", message: "the agent's policy does not allow this asset" },
  OutsideActiveHours: {
    param: "active_hours",
    message: "the agent may only transfer during its active_hours (UTC)",
  },
  PublicSpendAfterConfidential: {
    param: "confidential",
    message:
      "the agent already spent confidentially today, and the program cannot add a public amount to a daily total it cannot see; send this transfer confidentially, or publicly after the UTC day ends",
  },
  ConfidentialHoldOpen: HOLD_OPEN,
  // The proofs were made against limits that no longer held when the transaction landed: the owner
  // changed the policy, or the UTC day turned, meanwhile. The per-transaction bound is the one every
  // proof carries; a retry proves against the policy and day in force.
  LimitProofMismatch: {
    param: "per_transaction_limit_usdg",
    message:
      "the agent's limits (or the UTC day) changed while the transfer was being proved; retry to prove against the policy in force",
  },
  AgentNotActive: { param: "status", message: "the agent account is not active" },
} as const satisfies Readonly<Record<string, PolicyRefusal>>;

/** A policy decision of the program, by its IDL error name. */
export type PolicyRule = keyof typeof BY_PROGRAM_ERROR;

/**
 * The `422 policy_violation` the program's `rule` refusal answers, for a refusal decided before
 * anything was sent (agent-policy-precheck.ts): the same answer as when the program refuses.
 */
export function policyViolation(rule: PolicyRule): ApiError {
  const refusal: PolicyRefusal = BY_PROGRAM_ERROR[rule];
  return new ApiError("policy_violation", refusal.message, refusal.param);
}

function byProgramError(name: string): PolicyRefusal | null {
  return Object.hasOwn(BY_PROGRAM_ERROR, name) ? BY_PROGRAM_ERROR[name as PolicyRule] : null;
}

/** The policy rule behind `error`, or null when the error is not a policy decision. */
export function policyRefusalOf(error: unknown): PolicyRefusal | null {
  if (error instanceof PolicyLimitExceededError) {
    return error.limit === "daily" ? DAILY : PER_TRANSACTION;
  }
  if (isConfidentialError(error, "confidential_hold_open")) return HOLD_OPEN;
  if (error instanceof ProgramRefusal) return byProgramError(error.programError.name);
  if (isConfidentialError(error, "step_failed")) {
    const programError = agentPolicyErrorOf(error);
    return programError === null ? null : byProgramError(programError.name);
  }
  return null;
}
