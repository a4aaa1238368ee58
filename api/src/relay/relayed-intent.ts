/**
 * The transfers a relayed request carries, read from the checked transactions before anything is
 * submitted: each agent instruction's transfer id, destination and (public path) amount. The relay
 * writes every transfer's row from them BEFORE submission, as the API does for the transfers it
 * signs, so each row exists the moment the chain has its transfer (GET answers at once, crash
 * recovery and the indexer find it) and the agent's key counts each one (spec 5.6).
 */
import {
  AgentPolicyInstruction,
  identifyAgentPolicyInstruction,
  parseAgentConfidentialTransferInstruction,
  parseAgentTransferInstruction,
} from "@cpay/sdk";
import { parsableOf, type RelayedInstruction } from "./checks/verdict";

export interface RelayedIntent {
  /** Which of the request's transactions carries the transfer. */
  readonly wireIndex: number;
  readonly transferId: Uint8Array;
  /** The destination token account. */
  readonly destination: string;
  readonly mint: string;
  /** Base units of a public transfer; null for a confidential one (the service never sees it). */
  readonly amount: bigint | null;
  readonly confidential: boolean;
  /**
   * A confidential transfer's ciphertext-validity context (`ciphertext_validity_proof`): its
   * source ciphertexts are the key's usage increment (relayed-usage.ts). Null for a public one.
   */
  readonly validityContext: string | null;
}

/** Every agent transfer instruction of the checked transactions, in order (`checked[i]` = transaction i's). */
export function relayedIntentsOf(
  checked: readonly (readonly RelayedInstruction[])[],
  programId: string,
): RelayedIntent[] {
  const intents: RelayedIntent[] = [];
  for (const [wireIndex, instructions] of checked.entries()) {
    for (const instruction of instructions) {
      if (instruction.program !== programId) continue;
      const parsable = parsableOf(instruction);
      switch (identifyAgentPolicyInstruction(parsable)) {
        case AgentPolicyInstruction.AgentTransfer: {
          const { accounts, data } = parseAgentTransferInstruction(parsable);
          intents.push({
            wireIndex,
            transferId: Uint8Array.from(data.transferId),
            destination: accounts.destination.address,
            mint: accounts.mint.address,
            amount: data.amount,
            confidential: false,
            validityContext: null,
          });
          break;
        }
        case AgentPolicyInstruction.AgentConfidentialTransfer: {
          const { accounts, data } = parseAgentConfidentialTransferInstruction(parsable);
          intents.push({
            wireIndex,
            transferId: Uint8Array.from(data.transferId),
            destination: accounts.destination.address,
            mint: accounts.mint.address,
            amount: null,
            confidential: true,
            validityContext: accounts.ciphertextValidityProof.address,
          });
          break;
        }
        default:
      }
    }
  }
  return intents;
}
