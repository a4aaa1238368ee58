/**
 * What the program would decide for one of the agent's transfers now (executes, held for the
 * owner, or refused by which rule: agent-confidential/spend-decision.ts), without signing or
 * sending anything. Everything is read in one `getMultipleAccounts` as the program would read it
 * (the Policy and Agent accounts, the Clock sysvar); today's confidential spend is decrypted here
 * with the agent's keys, never sent anywhere. Balances are not checked: the program refuses a
 * transfer the balance cannot cover only when it runs.
 */
import type { Address } from "@solana/kit";
import { agentAccountOf } from "../agent-confidential/agent-account";
import { SYSVAR_CLOCK_ADDRESS, unixTimeOf, utcDayIndex } from "../agent-confidential/cluster-clock";
import { decodePolicySpendState } from "../agent-confidential/policy-account";
import { proverStateOf } from "../agent-confidential/prover-state";
import {
  decideAgentSpend,
  type SpendDecision,
  spentConfidentiallyToday,
} from "../agent-confidential/spend-decision";
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";
import type { ConfidentialKeyset } from "../confidential/keys";
import { findTokenAccount } from "../confidential/token-account";
import { getPolicyDecoder, POLICY_DISCRIMINATOR, type Policy } from "../generated";
import { findPolicyPda } from "../program/pdas";
import { decodeProgramAccount } from "../program/program-account";

export interface TransferPreviewInput {
  readonly agent: Address;
  readonly programAddress: Address;
  readonly mint: Address;
  /** Needed only to read a confidential spend made today. */
  readonly keys?: ConfidentialKeyset;
  readonly recipient: Address;
  readonly recipientHandle?: string;
  /** Base units. */
  readonly amount: bigint;
  readonly confidential: boolean;
}

/** The program's decision for `input` now (see the file doc). */
export async function previewAgentTransfer(
  chain: ChainPort,
  input: TransferPreviewInput,
): Promise<SpendDecision> {
  const [policyAddress] = await findPolicyPda(
    { agent: input.agent },
    { programAddress: input.programAddress },
  );
  const [[policyRecord, agentRecord, clock], destination] = await Promise.all([
    chain.getMultipleAccounts([policyAddress, input.agent, SYSVAR_CLOCK_ADDRESS]),
    findTokenAccount(input.recipient, input.mint),
  ]);
  const policy = policyAccountOf(input.programAddress, policyAddress, policyRecord ?? null);
  const agent = agentAccountOf(input.programAddress, input.agent, agentRecord ?? null);
  const unixTime = unixTimeOf(clock ?? null);
  const needsSpend = input.confidential && spentConfidentiallyToday(policy, unixTime);
  if (needsSpend && input.keys === undefined) {
    throw new Error(
      "the agent spent confidentially today: its confidential keys are needed to read how much",
    );
  }
  return decideAgentSpend({
    policy,
    agentActive: agent.active,
    confidentialHoldOpen: agent.confidentialHold !== null,
    unixTime,
    mint: input.mint,
    recipient: {
      handle: input.recipientHandle ?? null,
      destination,
      destinationOwner: input.recipient,
    },
    amount: input.amount,
    confidential: input.confidential,
    confidentialSpentToday:
      needsSpend && input.keys !== undefined
        ? proverStateOf(
            decodePolicySpendState(policyAddress, (policyRecord as AccountRecord).data),
            input.keys,
            utcDayIndex(unixTime),
          ).confidentialSpentToday
        : 0n,
  });
}

/**
 * The Policy account at `at`, decoded after the trust-boundary checks (this program's, its
 * discriminator); throws when there is none.
 */
export function policyAccountOf(programAddress: Address, at: Address, record: AccountRecord | null): Policy {
  const policy = decodeProgramAccount(record, programAddress, POLICY_DISCRIMINATOR, getPolicyDecoder());
  if (policy === null) throw new Error(`no Policy account at ${at}`);
  return policy;
}
