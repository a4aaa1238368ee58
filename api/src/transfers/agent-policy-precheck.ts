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
 * program's own refusals (policy-refusal.ts): same code, param and message. The rules and their
 * order are the SDK's `decideAgentSpend`, which a self-custody agent's preview runs too.
 */
import { findPolicyPda } from "@cpay/sdk";
import {
  agentAccountOf,
  decideAgentSpend,
  readProverState,
  SYSVAR_CLOCK_ADDRESS,
  spentConfidentiallyToday,
  unixTimeOf,
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
  const { sender, recipient, asset } = input;
  const [policy, [agentRecord, clock]] = await Promise.all([
    readPolicyAccount(service, sender.agent),
    service.chain.getMultipleAccounts([sender.agent, SYSVAR_CLOCK_ADDRESS]),
  ]);
  if (policy === null) {
    throw new ApiError("chain_unavailable", "the agent's policy account could not be read from the cluster");
  }
  const agent = agentAccountOf(service.chain.programId, address(sender.agent), agentRecord ?? null);
  const unixTime = unixTimeOf(clock ?? null);
  const decision = decideAgentSpend({
    policy,
    agentActive: agent.active,
    confidentialHoldOpen: agent.confidentialHold !== null,
    unixTime,
    mint: address(asset.mint),
    recipient: {
      handle: recipient.handle,
      destination: await findTokenAccount(recipient.wallet, asset.mint),
      destinationOwner: address(recipient.wallet),
    },
    amount: input.amount,
    confidential: input.confidential,
    confidentialSpentToday:
      input.confidential && spentConfidentiallyToday(policy, unixTime)
        ? await confidentialSpentToday(service, sender)
        : 0n,
  });
  // A hold is no refusal: the program holds it for the owner, as the transfer's answer says.
  if (decision.outcome === "refused") throw policyViolation(decision.rule);
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
