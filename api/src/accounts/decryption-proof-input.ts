/**
 * Where a balance read's decryption proof comes from: the GET body `{decryption_proof}` (the spec)
 * and nowhere else. Bytes 1..9 of a proof are the proven amount as a plain u64, and request headers
 * are what proxies, load balancers and tracing tools log by default, so a proof sent as an
 * `X-Decryption-Proof` header is refused outright (with or without a body) rather than read: the
 * client learns to move it into the body before more of them end up in someone's logs.
 */
import { ApiError } from "../core/api-error";

/** The header the proof must not travel in. */
export const REFUSED_PROOF_HEADER = "x-decryption-proof";

/**
 * The proof to verify (the body's), or undefined when none was sent. `400 invalid_request` (param
 * `x-decryption-proof`) when the request carries the proof header at all.
 */
export function decryptionProofOf(
  bodyProof: string | undefined,
  header: string | undefined,
): string | undefined {
  if (header !== undefined) {
    throw new ApiError(
      "invalid_request",
      "send the decryption proof in the request body's decryption_proof field, not in the X-Decryption-Proof " +
        "header: the proof carries the amount, and headers are often logged along the way",
      REFUSED_PROOF_HEADER,
    );
  }
  return bodyProof;
}
