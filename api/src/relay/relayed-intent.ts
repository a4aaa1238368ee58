/**
 * The transfer a relayed request carries, read from the checked transactions before anything is
 * submitted: the agent instruction's transfer id, destination and (public path) amount. The relay
 * writes the transfer's row from it BEFORE submission, as the API does for the transfers it signs,
 * so the row exists the moment the chain has the transfer (GET answers at once, crash recovery and
 * the indexer find it) and the agent's key counts it (spec 5.6).
 */
import {
  AGENT_CONFIDENTIAL_TRANSFER_DISCRIMINATOR,
  AGENT_TRANSFER_DISCRIMINATOR,
  getAgentConfidentialTransferInstructionDataDecoder,
  getAgentTransferInstructionDataDecoder,
} from "@cpay/sdk";
import { containsBytes } from "@solana/kit";
import type { RelayedInstruction } from "./checks/verdict";

export interface RelayedIntent {
  /** Which of the request's transactions carries the transfer. */
  readonly wireIndex: number;
  readonly transferId: Uint8Array;
  /** The destination token account (account 5 of both agent transfer instructions). */
  readonly destination: string;
  readonly mint: string;
  /** Base units of a public transfer; null for a confidential one (the service never sees it). */
  readonly amount: bigint | null;
  readonly confidential: boolean;
  /**
   * A confidential transfer's ciphertext-validity context (account 8 of
   * agent_confidential_transfer): its source ciphertexts are the key's usage increment
   * (relayed-usage.ts). Null for a public transfer.
   */
  readonly validityContext: string | null;
}

/** Accounts 4 and 5 of agent_transfer and agent_confidential_transfer: mint, destination. */
const MINT = 4;
const DESTINATION = 5;
/** Account 8 of agent_confidential_transfer: the ciphertext-validity context. */
const VALIDITY_CONTEXT = 8;

/** The first agent transfer instruction of the checked transactions (`checked[i]` = transaction i's). */
export function relayedIntentOf(
  checked: readonly (readonly RelayedInstruction[])[],
  programId: string,
): RelayedIntent | null {
  for (const [wireIndex, instructions] of checked.entries()) {
    for (const instruction of instructions) {
      if (instruction.program !== programId) continue;
      const { data } = instruction;
      const accountAt = (position: number) => instruction.accounts[position] ?? "";
      if (containsBytes(data, AGENT_TRANSFER_DISCRIMINATOR, 0)) {
        const decoded = getAgentTransferInstructionDataDecoder().decode(data);
        return {
          wireIndex,
          transferId: Uint8Array.from(decoded.transferId),
          destination: accountAt(DESTINATION),
          mint: accountAt(MINT),
          amount: decoded.amount,
          confidential: false,
          validityContext: null,
        };
      }
      if (containsBytes(data, AGENT_CONFIDENTIAL_TRANSFER_DISCRIMINATOR, 0)) {
        return {
          wireIndex,
          transferId: Uint8Array.from(
            getAgentConfidentialTransferInstructionDataDecoder().decode(data).transferId,
          ),
          destination: accountAt(DESTINATION),
          mint: accountAt(MINT),
          amount: null,
          confidential: true,
          validityContext: accountAt(VALIDITY_CONTEXT),
        };
      }
    }
  }
  return null;
}
