/**
 * When a memo cannot go with an agent's transfer, in the words the `/v1` API refuses it with
 * (`invalid_request`, param `memo`, api/src/transfers/create-transfer.ts), which the agent client
 * refuses it with too, before anything is signed: an agent meets one rule whichever way it pays.
 * - A memo is encrypted to the recipient's ElGamal key (memo.ts), so the recipient needs a
 *   confidential account (this holds for every sender's public transfer with a memo).
 * - An agent's confidential transfer carries none: its final transaction has no room for the record
 *   (api/src/transfers/agent-transfer.ts gives the bytes).
 */
import type { Address } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { findTokenAccount, readConfidentialState } from "../confidential/token-account";

export const MEMO_REFUSALS = {
  agentConfidentialTransfer:
    "memo: an agent's confidential transfer cannot carry a memo (its final transaction has no room left for the encrypted record within Solana's 1,232-byte limit); send it without a memo, or with confidential: false",
  recipientWithoutConfidentialAccount:
    "memo: the memo is encrypted to the recipient's confidential key, and this recipient has no confidential account; send it without a memo",
} as const;

/** A memo the transfer cannot carry: `/v1`'s `invalid_request` on `memo`, with its message. */
export class MemoRefusedError extends Error {
  override readonly name = "MemoRefusedError";
  readonly code = "invalid_request";
  readonly param = "memo";
  constructor(message: (typeof MEMO_REFUSALS)[keyof typeof MEMO_REFUSALS]) {
    super(message);
  }
}

/**
 * The ElGamal key a memo to the token account `destination` is encrypted to; throws
 * `MemoRefusedError` when the account has no confidential state.
 */
export async function recipientMemoKey(chain: ChainPort, destination: Address): Promise<Uint8Array> {
  const state = await readConfidentialState(chain, destination);
  if (state === null) throw new MemoRefusedError(MEMO_REFUSALS.recipientWithoutConfidentialAccount);
  return state.elgamalPubkey;
}

/**
 * Refuses, before anything is signed or asked, a memo an agent's transfer to `recipient` (a wallet)
 * cannot carry: any memo on a confidential transfer, and a memo to a recipient whose `mint` account
 * has no confidential state. The agent client refuses the same when it builds the transfer.
 */
export async function checkAgentMemo(
  chain: ChainPort,
  input: {
    readonly memo: string | undefined;
    readonly confidential: boolean;
    readonly recipient: Address;
    readonly mint: Address;
  },
): Promise<void> {
  if (input.memo === undefined) return;
  if (input.confidential) throw new MemoRefusedError(MEMO_REFUSALS.agentConfidentialTransfer);
  await recipientMemoKey(chain, await findTokenAccount(input.recipient, input.mint));
}
