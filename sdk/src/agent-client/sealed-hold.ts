/**
 * What a self-custody agent states to its owner about a transfer the program may hold: the amount
 * sealed from the agent's keys to the owner's ElGamal key (`@cpay/sdk/sealed`), bound to the `tx_...`
 * id the hold will get — derived from the PendingTransaction address of the agent's next hold nonce,
 * read now. The relay keeps it on the hold only; the owner sees what the agent stated (the program
 * enforces the limits on the real amount). Should another hold take that nonce first, the envelope
 * is bound to the wrong id and the owner's client refuses it rather than show a wrong amount.
 */
import type { Address } from "@solana/kit";
import { readAgentAccount } from "../agent-confidential/agent-account";
import type { ChainPort } from "../chain/chain-port";
import type { ConfidentialKeyset } from "../confidential/keys";
import { littleEndianToBigInt } from "../confidential/keys";
import { findPendingTransactionPda } from "../program/pdas";
import { holdTransactionId, sealTransferDetails } from "../sealed";

/** The amount sealed to the owner for the agent's next hold (see the file doc). */
export async function sealNextHoldAmount(
  chain: ChainPort,
  input: {
    readonly agent: Address;
    readonly programAddress: Address;
    readonly keys: ConfidentialKeyset;
    readonly ownerPubkey: Uint8Array;
    readonly amount: bigint;
  },
): Promise<string> {
  const { nextHoldNonce } = await readAgentAccount(chain, input.agent);
  const [pending] = await findPendingTransactionPda(
    { agent: input.agent, nonce: nextHoldNonce },
    { programAddress: input.programAddress },
  );
  return sealTransferDetails({
    amount: input.amount,
    memo: null,
    senderScalar: littleEndianToBigInt(input.keys.elgamal.secret().toBytes()),
    senderPubkey: input.keys.elgamalPubkey,
    recipientPubkey: input.ownerPubkey,
    boundTo: holdTransactionId(pending),
  });
}
