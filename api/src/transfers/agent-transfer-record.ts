/**
 * The transfer record of an agent's public transfer: the program's `transfer_record` rides in the
 * same transaction as `agent_transfer`, with the agent signer as its `sender` (the instruction only
 * needs the sender's signature), so the memo lands with the transfer and the transfer id gets its
 * Receipt `["receipt", agent signer, transfer_id]`: a resubmission of the same id fails as a whole.
 *
 * The memo is encrypted from the agent's confidential keys to the recipient's ElGamal key, bound to
 * the record's fields (`transferMemoAssociatedData`), exactly as the SDK does for wallet transfers,
 * so `readTransferMemo` decrypts it with the recipient's keys or the agent's (its owner's).
 * When the transfer is held, the record lands with the hold request; funds move at approval.
 */
import { buildTransferRecordInstruction } from "@cpay/sdk";
import { encryptMemo, readConfidentialState, transferMemoAssociatedData } from "@cpay/sdk/confidential";
import { type Address, address, type Instruction } from "@solana/kit";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { reservePayer } from "../reserve/reserve-scope";
import type { Sender } from "./sender";

/** Builds the record instruction (memo encrypted when given). */
export async function buildAgentTransferRecord(
  service: ServiceContext,
  input: {
    readonly sender: Extract<Sender, { kind: "agent" }>;
    readonly transferId: Uint8Array;
    readonly memo: string | null;
    readonly source: Address;
    readonly destination: Address;
    readonly mint: Address;
  },
): Promise<Instruction> {
  const fields = {
    transferId: input.transferId,
    sender: input.sender.agentSigner.address,
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    confidential: false,
  };
  const envelope =
    input.memo === null
      ? new Uint8Array(0)
      : encryptMemo({
          plaintext: new TextEncoder().encode(input.memo),
          senderKeys: input.sender.keys,
          recipientPubkey: await recipientMemoKey(service, input.destination),
          associatedData: transferMemoAssociatedData(fields),
        });
  return buildTransferRecordInstruction({
    sender: input.sender.agentSigner,
    payer: reservePayer(service),
    transferId: input.transferId,
    confidential: false,
    memo: envelope,
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    programAddress: address(service.chain.programId),
  });
}

/** The recipient's ElGamal key, which a memo needs (create-transfer checks it exists first). */
async function recipientMemoKey(service: ServiceContext, destination: Address): Promise<Uint8Array> {
  const state = await readConfidentialState(service.chain, destination);
  if (state === null) {
    throw new ApiError(
      "invalid_request",
      "memo: the memo is encrypted to the recipient's confidential key, and this recipient has no confidential account; send it without a memo",
      "memo",
    );
  }
  return state.elgamalPubkey;
}
