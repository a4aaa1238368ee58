/**
 * The transfer a relayed request carries, read from the checked transactions before anything is
 * submitted: the agent instruction's transfer id, destination and (public path) amount. The relay
 * writes the transfer's row from it BEFORE submission, as the API does for the transfers it signs,
 * so the row exists the moment the chain has the transfer (GET answers at once, crash recovery and
 * the indexer find it) and the agent's key counts it (spec 5.6).
 */
import {
  AgentPolicyInstruction,
  identifyAgentPolicyInstruction,
  parseAgentConfidentialTransferInstruction,
  parseAgentTransferInstruction,
} from "@cpay/sdk";
import { AccountRole, address } from "@solana/kit";
import type { RelayedInstruction } from "./checks/verdict";

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

/** The first agent transfer instruction of the checked transactions (`checked[i]` = transaction i's). */
export function relayedIntentOf(
  checked: readonly (readonly RelayedInstruction[])[],
  programId: string,
): RelayedIntent | null {
  for (const [wireIndex, instructions] of checked.entries()) {
    for (const instruction of instructions) {
      if (instruction.program !== programId) continue;
      // The generated (IDL) parsers name the accounts; roles play no part in reading them.
      const parsable = {
        programAddress: address(instruction.program),
        accounts: instruction.accounts.map((account) => ({
          address: address(account),
          role: AccountRole.READONLY,
        })),
        data: instruction.data,
      };
      switch (identifyAgentPolicyInstruction(parsable)) {
        case AgentPolicyInstruction.AgentTransfer: {
          const { accounts, data } = parseAgentTransferInstruction(parsable);
          return {
            wireIndex,
            transferId: Uint8Array.from(data.transferId),
            destination: accounts.destination.address,
            mint: accounts.mint.address,
            amount: data.amount,
            confidential: false,
            validityContext: null,
          };
        }
        case AgentPolicyInstruction.AgentConfidentialTransfer: {
          const { accounts, data } = parseAgentConfidentialTransferInstruction(parsable);
          return {
            wireIndex,
            transferId: Uint8Array.from(data.transferId),
            destination: accounts.destination.address,
            mint: accounts.mint.address,
            amount: null,
            confidential: true,
            validityContext: accounts.ciphertextValidityProof.address,
          };
        }
        default:
      }
    }
  }
  return null;
}
