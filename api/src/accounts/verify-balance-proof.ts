/**
 * The amount a client-made balance decryption proof shows (DESIGN section 6): the holder states an
 * amount and proves, with its own ElGamal key, that the on-chain available-balance ciphertext
 * encrypts exactly that amount. The service only verifies — it recomputes the key and ciphertext
 * from the chain — so an API key alone can never make it reveal an amount (spec section 5.7).
 */
import { isConfidentialError, verifyBalanceProofOnChain } from "@cpay/sdk/confidential";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

/**
 * The proven amount in base units; `422 decryption_proof_invalid` for a proof that is malformed,
 * made with another key, or made against a balance that has changed since. The message never
 * quotes an amount (the proof carries one in the clear: it is the caller's own).
 */
export async function verifiedBalance(
  service: ServiceContext,
  tokenAccount: string,
  proof: string,
): Promise<bigint> {
  try {
    return await verifyBalanceProofOnChain(service.chain, tokenAccount, proof);
  } catch (error) {
    if (!isConfidentialError(error, "decryption_proof_invalid")) throw error;
    throw new ApiError(
      "decryption_proof_invalid",
      "the decryption proof does not match this account's current balance ciphertext: make a new " +
        "proof from the on-chain available balance (incoming credits are applied at every balance read)",
      "decryption_proof",
    );
  }
}
