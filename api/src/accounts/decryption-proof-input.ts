/**
 * Where a balance read's decryption proof comes from: the GET body `{decryption_proof}` (as the
 * spec says) or the `X-Decryption-Proof` header (DESIGN section 6; many HTTP clients cannot send
 * a body with GET). Either is fine, both are fine when they agree.
 */
import { ApiError } from "../http/api-error";

/** Longest proof accepted, as in the body contract (`ZBalancesRequest`). */
const MAX_PROOF_LENGTH = 1024;

/**
 * The proof to verify, or undefined when none was sent. `400 invalid_request` (param
 * `decryption_proof`) for an empty or oversized header, or a header and body that disagree.
 */
export function decryptionProofOf(
  bodyProof: string | undefined,
  header: string | undefined,
): string | undefined {
  if (header === undefined) return bodyProof;
  const headerProof = header.trim();
  if (headerProof.length === 0 || headerProof.length > MAX_PROOF_LENGTH) {
    throw new ApiError(
      "invalid_request",
      `X-Decryption-Proof must be 1 to ${MAX_PROOF_LENGTH} characters of base64`,
      "decryption_proof",
    );
  }
  if (bodyProof !== undefined && bodyProof !== headerProof) {
    throw new ApiError(
      "invalid_request",
      "the body's decryption_proof and the X-Decryption-Proof header differ; send one proof",
      "decryption_proof",
    );
  }
  return headerProof;
}
