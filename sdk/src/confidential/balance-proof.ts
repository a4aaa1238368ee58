/**
 * Balance decryption proofs (DESIGN 6): the account holder states an amount and proves, without
 * revealing its key, that the on-chain available-balance ciphertext encrypts exactly that amount.
 *
 * Statement: C - amount*G (the available ciphertext with amount*G taken out of its commitment)
 * encrypts zero under the account's ElGamal key — a zk-sdk ZeroCiphertext sigma proof.
 *
 * Wire format v1 (standard padded base64 of 201 bytes):
 *   [0]        version = 1
 *   [1..9)     amount, u64 little-endian
 *   [9..41)    ElGamal public key the proof is for
 *   [41..105)  the ciphertext proven to encrypt zero (available - amount*G)
 *   [105..201) the ZeroCiphertext proof (Y_P, Y_D, z; 32 bytes each)
 * Bytes [9..201) are exactly zk-sdk's ZeroCiphertextProofData. The verifier never trusts the
 * embedded key or ciphertext: it recomputes both from the chain and requires equality, so a proof
 * is valid only for the current on-chain balance of that account (any later credit applied or
 * debit invalidates it — the holder makes a new one).
 */
import type { ChainPort } from "../chain/chain-port";
import { sameBytes } from "./account-setup";
import { MAX_U64 } from "./amounts";
import { subtractAmount } from "./ciphertext-arithmetic";
import { ConfidentialError } from "./errors";
import { decodeStrictBase64 } from "./key-export";
import { bigIntToLittleEndian, type ConfidentialKeyset, littleEndianToBigInt } from "./keys";
import { readConfidentialState } from "./token-account";
import { ElGamalCiphertext, ZeroCiphertextProofData } from "./zk-sdk";

export const BALANCE_PROOF_VERSION = 1;
const PROOF_DATA_LENGTH = 192;
export const BALANCE_PROOF_LENGTH = 1 + 8 + PROOF_DATA_LENGTH;

/**
 * Proves that `availableCiphertext` (the account's on-chain available balance) encrypts `amount`.
 * Throws `decryption_proof_invalid` when it does not (zk-sdk will not prove a false statement).
 */
export function createBalanceProof(input: {
  readonly keys: ConfidentialKeyset;
  readonly availableCiphertext: Uint8Array;
  readonly amount: bigint;
}): string {
  if (input.amount < 0n || input.amount > MAX_U64)
    throw new ConfidentialError("invalid_amount", "amount must be a u64");
  const remainder = ElGamalCiphertext.fromBytes(subtractAmount(input.availableCiphertext, input.amount));
  if (remainder === undefined) throw new Error("invalid available-balance ciphertext");
  let proof: Uint8Array;
  try {
    proof = new ZeroCiphertextProofData(input.keys.elgamal, remainder).toBytes();
  } catch (cause) {
    // zk-sdk refuses to prove a false statement: wrong amount, or a ciphertext of another key.
    throw new ConfidentialError(
      "decryption_proof_invalid",
      "cannot prove: the ciphertext does not encrypt this amount under these keys",
      { cause },
    );
  }
  const bytes = new Uint8Array(BALANCE_PROOF_LENGTH);
  bytes[0] = BALANCE_PROOF_VERSION;
  bytes.set(bigIntToLittleEndian(input.amount, 8), 1);
  bytes.set(proof, 9);
  return Buffer.from(bytes).toString("base64");
}

/**
 * Checks `proof` against an account's ElGamal key and available-balance ciphertext and returns the
 * proven amount; throws ConfidentialError(`decryption_proof_invalid`) for anything else.
 */
export function verifyBalanceProof(input: {
  readonly proof: string;
  readonly elgamalPubkey: Uint8Array;
  readonly availableCiphertext: Uint8Array;
}): bigint {
  const invalid = (why: string, cause?: unknown) =>
    new ConfidentialError("decryption_proof_invalid", `balance proof rejected: ${why}`, { cause });
  const bytes = decodeStrictBase64(input.proof);
  if (bytes === null || bytes.length !== BALANCE_PROOF_LENGTH) throw invalid("malformed");
  if (bytes[0] !== BALANCE_PROOF_VERSION) throw invalid(`unknown version ${bytes[0]}`);
  const amount = littleEndianToBigInt(bytes.subarray(1, 9));
  const proofData = bytes.subarray(9);
  if (!sameBytes(proofData.subarray(0, 32), input.elgamalPubkey)) throw invalid("made for another key");
  let expected: Uint8Array;
  try {
    expected = subtractAmount(input.availableCiphertext, amount);
  } catch (cause) {
    throw invalid("the on-chain ciphertext is malformed", cause);
  }
  if (!sameBytes(proofData.subarray(32, 96), expected)) {
    throw invalid("does not match the on-chain balance for this amount");
  }
  try {
    ZeroCiphertextProofData.fromBytes(proofData).verify();
  } catch (cause) {
    throw invalid("the zero-ciphertext proof does not verify", cause);
  }
  return amount;
}

/** `verifyBalanceProof` against the token account's current on-chain state. */
export async function verifyBalanceProofOnChain(
  chain: ChainPort,
  tokenAccount: string,
  proof: string,
): Promise<bigint> {
  const state = await readConfidentialState(chain, tokenAccount);
  if (state === null) {
    throw new ConfidentialError("decryption_proof_invalid", `${tokenAccount} has no confidential balance`);
  }
  return verifyBalanceProof({
    proof,
    elgamalPubkey: state.elgamalPubkey,
    availableCiphertext: state.availableBalance,
  });
}
