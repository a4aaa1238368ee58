/**
 * A confidential transfer's amount as an encrypted total (confidential/encrypted-total.ts), taken
 * from the transfer's ciphertext-validity context on chain, so a service that never sees the amount
 * can still add it to a key's usage (spec 5.6 "total USDG transferred").
 *
 * Token-2022 splits a transfer's amount the way an encrypted total is split: `lo` = the low 16
 * bits, `hi` = the rest. The validity context holds both halves as grouped ciphertexts whose
 * handle 0 is under the source account's ElGamal key; (commitment, handle 0) of each half is
 * therefore exactly the total's `lo` and `hi` part for an amount under that key.
 *
 * The context is trusted only as far as the program trusts it: it must be owned by the ZK ElGamal
 * Proof program (which writes a context only for a proof it verified), be a 3-handles validity
 * context of the exact length, name `authority` (the agent PDA that will consume it), and have the
 * expected source key. Anything else reads as null: the transfer then counts without an amount.
 */
import type { Address } from "@solana/kit";
import { getAddressEncoder } from "@solana/kit";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import type { ChainPort } from "../chain/chain-port";
import { sameBytes } from "../confidential/account-setup";
import { ciphertextFromGrouped } from "../confidential/ciphertext-arithmetic";
import { encryptedTotalFromParts } from "../confidential/encrypted-total";
import {
  parseValidityProofContext,
  VALIDITY_PROOF_CONTEXT_LENGTH,
  type ValidityProofContext,
} from "./limit-ciphertexts";

/** A context account: authority 32, proof type 1, then the proof's context. */
const CONTEXT_HEADER_LENGTH = 33;
/** `ProofType::BatchedGroupedCiphertext3HandlesValidity`. */
const GROUPED_3_HANDLES_VALIDITY = 12;

/** The transfer's amount, `lo` and `hi` under the source key, in the encrypted-total layout. */
export function encryptedTotalOfTransfer(context: ValidityProofContext): Uint8Array {
  return encryptedTotalFromParts(
    ciphertextFromGrouped(context.groupedLo, 0),
    ciphertextFromGrouped(context.groupedHi, 0),
  );
}

/**
 * The verified validity context at `contextAddress`, if it is one under `authority` whose source
 * key is `sourcePubkey`; null otherwise (missing, another owner, type, length, authority or key).
 */
export async function readTransferValidityContext(
  chain: ChainPort,
  contextAddress: Address,
  expected: { readonly authority: Address; readonly sourcePubkey: Uint8Array },
): Promise<ValidityProofContext | null> {
  const account = await chain.getAccount(contextAddress);
  const verified = account === null ? null : verifiedValidityContextOf(account);
  if (verified === null) return null;
  const authority = Uint8Array.from(getAddressEncoder().encode(expected.authority));
  if (!sameBytes(verified.authority, authority)) return null;
  const { context } = verified;
  return sameBytes(context.sourcePubkey, expected.sourcePubkey) ? context : null;
}

/**
 * A transfer's ciphertext-validity context out of a context account's owner and bytes, and the
 * authority that may close it; null unless the ZK ElGamal Proof program owns it (it writes a
 * context only for a proof it verified) and it is a 3-handles validity context of the exact length.
 */
export function verifiedValidityContextOf(account: {
  readonly owner: string;
  readonly data: Uint8Array;
}): { readonly authority: Uint8Array; readonly context: ValidityProofContext } | null {
  const { owner, data } = account;
  if (owner !== ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS) return null;
  if (data.length !== CONTEXT_HEADER_LENGTH + VALIDITY_PROOF_CONTEXT_LENGTH) return null;
  if (data[CONTEXT_HEADER_LENGTH - 1] !== GROUPED_3_HANDLES_VALIDITY) return null;
  return {
    authority: data.slice(0, 32),
    context: parseValidityProofContext(data.subarray(CONTEXT_HEADER_LENGTH)),
  };
}
