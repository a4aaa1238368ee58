/**
 * A self-custody agent's public transfer as one transaction for the relay: [CreateATA-idempotent
 * for the recipient's Token-2022 account when it has none, `agent_transfer`], the relay's fee payer
 * as fee payer and as the payer of both (the recipient account's rent, a hold's rent), signed here
 * by the agent signer only. The program applies the whole policy: it executes, holds above the
 * HITL threshold, or refuses (then the relay's simulation fails with the program's error). With a
 * memo, the `transfer_record` follows `agent_transfer` with the memo encrypted to the recipient's
 * ElGamal key (agent-transfer-record.ts), as in the service's own agent transfers; the relay takes
 * a record only beside the transfer it records. A recipient without a confidential account cannot
 * be sent a memo (`MemoRefusedError`, memo-refusals.ts).
 *
 * The service's relay has its fee payer open accounts only for the service's own accounts (whoever
 * closes a token account takes its rent): to an outside address with no account yet it refuses the
 * transaction (`external_account_opening`) and the recipient, or the agent signer paying the rent,
 * must open it first. An account that exists is not opened again, so a transfer to it needs no
 * opening at all.
 */
import { type Address, createNoopSigner, type TransactionSigner } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { readAgentAccount } from "../agent-confidential/agent-account";
import type { ChainPort } from "../chain/chain-port";
import { PACKET_DATA_SIZE, partiallySignTransactionToWire } from "../chain/sign-transaction";
import type { ConfidentialKeyset } from "../confidential/keys";
import { findTokenAccount } from "../confidential/token-account";
import { buildAgentTransferInstruction } from "../program/instructions";
import { buildAgentTransferRecord } from "./agent-transfer-record";
import { recipientMemoKey } from "./memo-refusals";

export interface RelayedPublicTransferInput {
  readonly agentSigner: TransactionSigner;
  readonly agent: Address;
  readonly mint: Address;
  /** The recipient's wallet: its associated Token-2022 account receives the amount. */
  readonly recipient: Address;
  readonly recipientHandle?: string;
  readonly amount: bigint;
  readonly transferId: Uint8Array;
  /** A note for the recipient, encrypted from the agent's keys; none: no record. */
  readonly memo?: { readonly text: string; readonly agentKeys: ConfidentialKeyset };
  readonly programAddress: Address;
  /** From the relay: the fee payer to name and the blockhash to sign with. */
  readonly feePayer: Address;
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
}

/** The transfer's wire bytes, signed by the agent signer, the fee payer's slot empty. */
export async function buildRelayedPublicTransfer(
  chain: ChainPort,
  input: RelayedPublicTransferInput,
): Promise<Uint8Array> {
  const feePayer = createNoopSigner(input.feePayer);
  const [source, destination, { nextHoldNonce }] = await Promise.all([
    findTokenAccount(input.agent, input.mint),
    findTokenAccount(input.recipient, input.mint),
    readAgentAccount(chain, input.agent),
  ]);
  const opening =
    (await chain.getAccount(destination)) === null
      ? [
          getCreateAssociatedTokenIdempotentInstruction({
            payer: feePayer,
            ata: destination,
            owner: input.recipient,
            mint: input.mint,
            tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
          }),
        ]
      : [];
  const record =
    input.memo === undefined
      ? []
      : [
          await buildAgentTransferRecord({
            agentSigner: input.agentSigner,
            payer: feePayer,
            transferId: input.transferId,
            memo: {
              ...input.memo,
              recipientElgamalPubkey: await recipientMemoKey(chain, destination),
            },
            source,
            destination,
            mint: input.mint,
            programAddress: input.programAddress,
          }),
        ];
  const { wire } = await partiallySignTransactionToWire({
    feePayer,
    blockhash: input.blockhash,
    lastValidBlockHeight: input.lastValidBlockHeight,
    instructions: [
      ...opening,
      await buildAgentTransferInstruction({
        agentSigner: input.agentSigner,
        agent: input.agent,
        nextHoldNonce,
        mint: input.mint,
        source,
        destination,
        amount: input.amount,
        transferId: input.transferId,
        payer: feePayer,
        ...(input.recipientHandle === undefined ? {} : { recipientHandle: input.recipientHandle }),
        programAddress: input.programAddress,
      }),
      ...record,
    ],
  });
  if (wire.length > PACKET_DATA_SIZE) {
    throw new RangeError(`the transfer is ${wire.length} bytes (limit ${PACKET_DATA_SIZE})`);
  }
  return wire;
}
