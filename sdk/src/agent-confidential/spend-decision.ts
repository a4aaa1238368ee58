/**
 * What the program would do with one agent spend now, from the accounts it reads (Policy, Agent,
 * the Clock sysvar) and today's confidential spend, decided in the program's own order
 * (`agent_transfer`, `agent_confidential_transfer`: instructions/spend.rs, rules/limits.rs):
 *
 * 1. the agent is active (`AgentNotActive`), and has no open confidential hold (`ConfidentialHoldOpen`);
 * 2. the asset is allowed (`MintNotAllowed`), the recipient too (`RecipientNotAllowed`), within the
 *    active hours (`OutsideActiveHours`);
 * 3. no public spend on a UTC day with confidential spend (`PublicSpendAfterConfidential`);
 * 4. per-transaction limit, then what is left of the daily limit (public + confidential spend today);
 * 5. above the HITL threshold it is held for the owner; at or below it, it executes.
 *
 * The `/v1` API checks an agent's transfer with it before the balance (so which refusal comes back
 * never depends on the balance), and a self-custody agent previews a payment with it. The program
 * stays the enforcer: this must never be stricter than it. Balances are not a rule here.
 */
import type { Address } from "@solana/kit";
import type { Policy } from "../generated";
import { policyParamsFromAccount } from "../program/policy-codec";
import type { PolicyRule } from "../program/policy-refusals";
import { recipientAllowed, type SpendRecipient, withinActiveHours } from "../program/spend-rules";
import { utcDayIndex } from "./cluster-clock";

/** The decision; a refusal names the program's rule (its IDL error name). */
export type SpendDecision =
  | { readonly outcome: "executes" }
  | { readonly outcome: "held" }
  | { readonly outcome: "refused"; readonly rule: PolicyRule };

export interface AgentSpendFacts {
  /** The agent's Policy account, decoded. */
  readonly policy: Policy;
  /** The Agent account's status is active. */
  readonly agentActive: boolean;
  /** The Agent account names an open confidential hold. */
  readonly confidentialHoldOpen: boolean;
  /** The cluster's unix time (the Clock sysvar's). */
  readonly unixTime: bigint;
  readonly mint: Address;
  readonly recipient: SpendRecipient;
  /** Base units. */
  readonly amount: bigint;
  readonly confidential: boolean;
  /**
   * Today's confidential spend, decrypted with the agent's keys (0 when there is none); null when
   * it could not be read: the daily limit is then left to the program (and the SDK's proofs).
   */
  readonly confidentialSpentToday: bigint | null;
}

/** Decides `facts` in the program's order (see the file doc). */
export function decideAgentSpend(facts: AgentSpendFacts): SpendDecision {
  const refused = (rule: PolicyRule): SpendDecision => ({ outcome: "refused", rule });
  const { policy, amount } = facts;
  const params = policyParamsFromAccount(policy);
  if (!facts.agentActive) return refused("AgentNotActive");
  if (facts.confidentialHoldOpen) return refused("ConfidentialHoldOpen");
  if (!params.allowedMints.includes(facts.mint)) return refused("MintNotAllowed");
  if (!recipientAllowed(params.recipientPatterns, facts.recipient)) return refused("RecipientNotAllowed");
  if (!withinActiveHours(params.activeStartMinute, params.activeEndMinute, facts.unixTime)) {
    return refused("OutsideActiveHours");
  }
  const spentConfidentially = spentConfidentiallyToday(policy, facts.unixTime);
  if (!facts.confidential && spentConfidentially) return refused("PublicSpendAfterConfidential");
  if (amount > params.perTransactionLimit) return refused("PerTransactionLimitExceeded");
  const publicSpent = countedToday(policy, facts.unixTime) ? policy.spentToday : 0n;
  const confidentialSpent = spentConfidentially ? facts.confidentialSpentToday : 0n;
  if (confidentialSpent !== null && publicSpent + confidentialSpent + amount > params.dailyLimit) {
    return refused("DailyLimitExceeded");
  }
  return amount > params.hitlThreshold ? { outcome: "held" } : { outcome: "executes" };
}

/**
 * Whether the policy holds confidential spend for the UTC day of `unixTime`: what makes a public
 * spend refused, and today's confidential spend worth decrypting. Like the program
 * (`Policy::has_confidential_spend_on`), the spend's commitment (its first 32 bytes) is what counts.
 */
export function spentConfidentiallyToday(policy: Policy, unixTime: bigint): boolean {
  return (
    countedToday(policy, unixTime) && !policy.spendCiphertext.subarray(0, 32).every((byte) => byte === 0)
  );
}

/** The stored counters are today's (a stored day after today, a clock stepped back, still counts). */
function countedToday(policy: Policy, unixTime: bigint): boolean {
  return policy.dayIndex >= utcDayIndex(unixTime);
}
