/**
 * An agent transfer the on-chain spend policy refused -> `422 policy_violation` whose `param` names
 * the rule (a field of the spend policy, spec 2.4). Every limit is enforced by the program; the
 * API never pre-checks one. Refusals reach here in three forms:
 * - `ProgramRefusal` from a transaction the program rejected (public path, send-instructions.ts);
 * - `PolicyLimitExceededError` from the SDK's confidential path, which must know the limits to
 *   build its range proofs and refuses before proving when one is broken (nothing was sent);
 * - a confidential step whose transaction the program rejected (`agentPolicyErrorOf` digs out the
 *   program error), and the SDK's `confidential_hold_open`.
 * Messages name the rule, never an amount, a limit value or a balance (the table is the SDK's
 * `POLICY_REFUSALS`, which every door reads).
 */
import { POLICY_REFUSALS, type PolicyRefusal, type PolicyRule, policyRefusalByName } from "@cpay/sdk";
import { agentSpendRefusalOf } from "@cpay/sdk/agent-confidential";
import { ProgramRefusal } from "../chain/send-instructions";
import { ApiError } from "../core/api-error";

/**
 * The `422 policy_violation` the program's `rule` refusal answers, for a refusal decided before
 * anything was sent (agent-policy-precheck.ts): the same answer as when the program refuses.
 */
export function policyViolation(rule: PolicyRule): ApiError {
  const refusal: PolicyRefusal = POLICY_REFUSALS[rule];
  return new ApiError("policy_violation", refusal.message, refusal.param);
}

/** The policy rule behind `error`, or null when the error is not a policy decision. */
export function policyRefusalOf(error: unknown): PolicyRefusal | null {
  if (error instanceof ProgramRefusal) return policyRefusalByName(error.programError.name);
  return agentSpendRefusalOf(error);
}
