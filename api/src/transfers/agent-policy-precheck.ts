/**
 * An agent's transfer against its spend policy, checked BEFORE the balance (create-transfer.ts):
 * if the balance were checked first, `402` for a small amount against `422` for a large one would
 * tell an agent key its confidential balance, which the service must never disclose (spec 1.2,
 * 5.7). So every rule the program would refuse on that needs no balance runs here, in the
 * program's order: the agent's status, an open confidential hold, the asset, the recipient, the
 * active hours, a public spend after a confidential one today, the per-transaction limit and what
 * is left of the daily limit. After this, only the balance (`402`) can refuse the transfer, unless
 * the policy or the clock changed in between (then the program's refusal comes back, as before).
 *
 * Read from the chain, as the program reads it: the Policy and Agent accounts and the cluster's
 * clock. Today's confidential spend is the prover state the SDK decrypts for every agent transfer
 * anyway (it must, to prove the limits); nothing here is stored or returned. The answers are the
 * program's own refusals (policy-refusal.ts): same code, param and message.
 */
import { findPolicyPda, policyParamsFromAccount, recipientAllowed, withinActiveHours } from "@cpay/sdk";
import {
  agentAccountOf,
  readProverState,
  SYSVAR_CLOCK_ADDRESS,
  unixTimeOf,
  utcDayIndex,
} from "@cpay/sdk/agent-confidential";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { readPolicyAccount } from "../agents/read-spend-policy";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { policyViolation } from "./policy-refusal";
import type { ResolvedAsset } from "./resolve-asset";
import type { Recipient } from "./resolve-recipient";
import type { Sender } from "./sender";

type AgentSender = Extract<Sender, { kind: "agent" }>;

/** The Agent account's `status` byte and its active value (program `state/agent.rs`). */
const AGENT_STATUS_OFFSET = 106;
const AGENT_ACTIVE = 1;

/** Throws the program's `422 policy_violation` for the first rule that refuses this transfer. */
export async function requireAgentPolicyAllows(
  service: ServiceContext,
  input: {
    readonly sender: AgentSender;
    readonly recipient: Recipient;
    readonly asset: ResolvedAsset;
    readonly amount: bigint;
    readonly confidential: boolean;
  },
): Promise<void> {
  const { sender, recipient, asset, amount } = input;
  // The policy, the agent and the clock at once; checked in the order the refusals are reported.
  const [policy, [agentRecord, clock]] = await Promise.all([
    readPolicyAccount(service, sender.agent),
    service.chain.getMultipleAccounts([sender.agent, SYSVAR_CLOCK_ADDRESS]),
  ]);
  if (policy === null) {
    throw new ApiError("chain_unavailable", "the agent's policy account could not be read from the cluster");
  }
  const params = policyParamsFromAccount(policy);
  const agent = agentAccountOf(service.chain.programId, address(sender.agent), agentRecord ?? null);
  // agentAccountOf checked owner, length and discriminator; status is the byte at 106 (1 = active).
  if (agentRecord?.data[AGENT_STATUS_OFFSET] !== AGENT_ACTIVE) {
    throw policyViolation("AgentNotActive");
  }
  if (agent.confidentialHold !== null) throw policyViolation("ConfidentialHoldOpen");
  if (!params.allowedMints.includes(address(asset.mint))) throw policyViolation("MintNotAllowed");
  const allowed = recipientAllowed(params.recipientPatterns, {
    handle: recipient.handle,
    destination: await findTokenAccount(recipient.wallet, asset.mint),
    destinationOwner: address(recipient.wallet),
  });
  if (!allowed) throw policyViolation("RecipientNotAllowed");
  const now = unixTimeOf(clock ?? null);
  if (!withinActiveHours(params.activeStartMinute, params.activeEndMinute, now)) {
    throw policyViolation("OutsideActiveHours");
  }
  const today = utcDayIndex(now);
  const countedToday = policy.dayIndex >= today;
  const confidentialSpendToday =
    countedToday && !policy.spendCiphertext.subarray(0, 32).every((byte) => byte === 0);
  if (!input.confidential && confidentialSpendToday) throw policyViolation("PublicSpendAfterConfidential");
  if (amount > params.perTransactionLimit) throw policyViolation("PerTransactionLimitExceeded");
  const publicSpent = countedToday ? policy.spentToday : 0n;
  const confidentialSpent =
    input.confidential && confidentialSpendToday ? await confidentialSpentToday(service, sender) : 0n;
  // Unknown (not decryptable here): the SDK and the program decide, as before.
  if (confidentialSpent === null) return;
  if (publicSpent + confidentialSpent + amount > params.dailyLimit)
    throw policyViolation("DailyLimitExceeded");
}

/** Today's confidential spend as the agent's prover reads it; null when it cannot be read. */
async function confidentialSpentToday(service: ServiceContext, sender: AgentSender): Promise<bigint | null> {
  const [policy] = await findPolicyPda(
    { agent: sender.agent },
    { programAddress: address(service.chain.programId) },
  );
  try {
    return (await readProverState(service.chain, { policy, keys: sender.keys })).confidentialSpentToday;
  } catch {
    return null;
  }
}
