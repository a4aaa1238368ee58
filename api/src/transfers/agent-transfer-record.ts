/**
 * The transfer record of an agent's public transfer the service makes: the SDK's
 * `buildAgentTransferRecord` (`@cpay/sdk/agent-client`, which a self-custody agent's client builds
 * its record with too; its doc says what the record does), with the reserve paying the receipt and
 * the memo encrypted from the agent's keys to the recipient's ElGamal key.
 */
import {
  buildAgentTransferRecord as buildRecord,
  MemoRefusedError,
  recipientMemoKey,
} from "@cpay/sdk/agent-client";
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
  return buildRecord({
    agentSigner: input.sender.agentSigner,
    payer: reservePayer(service),
    transferId: input.transferId,
    memo:
      input.memo === null
        ? null
        : {
            text: input.memo,
            agentKeys: input.sender.keys,
            recipientElgamalPubkey: await memoKeyOf(service, input.destination),
          },
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    programAddress: address(service.chain.programId),
  });
}

/** The recipient's ElGamal key, which a memo needs (create-transfer checks it exists first). */
async function memoKeyOf(service: ServiceContext, destination: Address): Promise<Uint8Array> {
  try {
    return await recipientMemoKey(service.chain, destination);
  } catch (error) {
    if (error instanceof MemoRefusedError) throw new ApiError(error.code, error.message, error.param);
    throw error;
  }
}
