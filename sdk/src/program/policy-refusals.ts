/**
 * The program's policy decisions, by their IDL error name, as a caller meets them: the spend-policy
 * field (or agent property) that refused the spend (spec 2.4's names, the `/v1` refusal's `param`)
 * and a sentence that names the rule, never an amount, a limit value or a balance. One table for
 * every door: the `/v1` API's `422 policy_violation`, the MCP servers' tool errors and a preview of
 * what the program would decide all read it.
 */

export interface PolicyRefusal {
  /** The spend-policy field (or agent property) that refused the transfer. */
  readonly param: string;
  readonly message: string;
}

const PER_TRANSACTION: PolicyRefusal = {
  param: "per_transaction_limit_usdg",
  message: "the amount is above the agent's per-transaction limit",
};

export const POLICY_REFUSALS = {
  PerTransactionLimitExceeded: PER_TRANSACTION,
  DailyLimitExceeded: {
    param: "daily_limit_usdg",
    message: "the transfer would take the agent over its daily limit for today (UTC day)",
  },
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
  ConfidentialHoldOpen: {
    param: "confidential",
    message:
      "the agent has a confidential transfer waiting for its owner's approval; its other outgoing transfers wait until that one is approved, rejected or expires",
  },
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
export type PolicyRule = keyof typeof POLICY_REFUSALS;

/** The refusal of a program error name, or null when the error is not a policy decision. */
export function policyRefusalByName(name: string): PolicyRefusal | null {
  return Object.hasOwn(POLICY_REFUSALS, name) ? POLICY_REFUSALS[name as PolicyRule] : null;
}
