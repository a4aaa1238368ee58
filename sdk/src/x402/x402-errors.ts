/**
 * Why an agent's x402 payer did not sign a payment: one error type, its `code` the `/v1` error code
 * a caller already knows where there is one. Every one of them is raised before anything is signed,
 * so nothing was paid and nothing is retried.
 *
 * - `policy_violation`: the agent's spend policy refuses it; `rule` is the program's rule (its IDL
 *   error name) and `param` the policy field, in the words of `POLICY_REFUSALS`;
 * - `approval_required`: above the policy's human-approval threshold. The program would hold it for
 *   the owner, and a hold cannot pay an x402 resource (see README.md, "Above the approval threshold");
 * - `insufficient_balance`: the agent's public balance of the asset is below the amount;
 * - `recipient_account_missing`: `payTo` has no token account of the asset, and an x402 payment may
 *   not open one (the fee payer may sign for nothing else, and no other program may run);
 * - `unpayable_requirement`: not an `exact` requirement this agent can pay at all (another network,
 *   scheme or token program, a malformed field); `param` names the field.
 */
import { POLICY_REFUSALS, type PolicyRule } from "../program/policy-refusals";

export type AgentX402ErrorCode =
  | "policy_violation"
  | "approval_required"
  | "insufficient_balance"
  | "recipient_account_missing"
  | "unpayable_requirement";

export class AgentX402Error extends Error {
  override readonly name = "AgentX402Error";
  constructor(
    readonly code: AgentX402ErrorCode,
    message: string,
    /** The policy field (`policy_violation`) or the requirement's field it is about. */
    readonly param?: string,
    /** `policy_violation` only: the program's rule. */
    readonly rule?: PolicyRule,
  ) {
    super(message);
  }
}

/** The spend policy's refusal of a payment by `rule`, in the words every door uses. */
export function policyRefused(rule: PolicyRule): AgentX402Error {
  const refusal = POLICY_REFUSALS[rule];
  return new AgentX402Error("policy_violation", refusal.message, refusal.param, rule);
}

/** A requirement the payer cannot pay, about `param`. */
export function unpayable(param: string, message: string): AgentX402Error {
  return new AgentX402Error("unpayable_requirement", message, param);
}
