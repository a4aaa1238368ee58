/**
 * The transfer record of an agent's public transfer, for the service's `/v1` agent path and the
 * self-custody agent client alike: the program's `transfer_record` rides in the same transaction as
 * `agent_transfer`, with the agent signer as its `sender` (the instruction only needs the sender's
 * signature), so the memo lands with the transfer and the transfer id gets its Receipt
 * `["receipt", agent signer, transfer_id]`: a resubmission of the same id fails as a whole.
 *
 * The memo is encrypted from the agent's confidential keys to the recipient's ElGamal key, bound to
 * the record's fields (`transferMemoAssociatedData`), exactly as the SDK does for wallet transfers,
 * so `readTransferMemo` decrypts it with the recipient's keys or the agent's (its owner's). Only the
 * envelope leaves the process. When the transfer is held, the record lands with the hold request;
 * funds move at approval.
 */
import type { Address, Instruction, TransactionSigner } from "@solana/kit";
import type { ConfidentialKeyset } from "../confidential/keys";
import { encryptMemo } from "../confidential/memo";
import { transferMemoAssociatedData } from "../confidential/transfer-record";
import { buildTransferRecordInstruction } from "../program/instructions";

/** A memo and the keys it is encrypted between. */
export interface AgentTransferMemo {
  readonly text: string;
  /** The agent token account's confidential keys (the sender's side). */
  readonly agentKeys: ConfidentialKeyset;
  /** The recipient's ElGamal key (memo-refusals.ts `recipientMemoKey` reads it). */
  readonly recipientElgamalPubkey: Uint8Array;
}

/** Builds the record instruction; `memo` null: the record carries an empty one. */
export async function buildAgentTransferRecord(input: {
  readonly agentSigner: TransactionSigner;
  /** Pays the receipt's rent. */
  readonly payer: TransactionSigner;
  readonly transferId: Uint8Array;
  readonly memo: AgentTransferMemo | null;
  readonly source: Address;
  readonly destination: Address;
  readonly mint: Address;
  readonly programAddress: Address;
}): Promise<Instruction> {
  const fields = {
    transferId: input.transferId,
    sender: input.agentSigner.address,
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    confidential: false,
  };
  const envelope =
    input.memo === null
      ? new Uint8Array(0)
      : encryptMemo({
          plaintext: new TextEncoder().encode(input.memo.text),
          senderKeys: input.memo.agentKeys,
          recipientPubkey: input.memo.recipientElgamalPubkey,
          associatedData: transferMemoAssociatedData(fields),
        });
  return buildTransferRecordInstruction({
    sender: input.agentSigner,
    payer: input.payer,
    transferId: input.transferId,
    confidential: false,
    memo: envelope,
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    programAddress: input.programAddress,
  });
}
