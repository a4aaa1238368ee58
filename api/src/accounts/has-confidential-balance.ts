/**
 * The one place a balance READ decrypts, and only to answer the yes/no the spec requires of a
 * balance read without a proof (spec 4.10: "whether a non-zero balance is held"). The service is
 * custodial, so it holds the account's keys; the number decrypted here never leaves this function —
 * it is not returned, logged, stored or put in an error message. An amount is only ever shown for
 * a client-made decryption proof (verify-balance-proof.ts). (Spending is the other case: building a
 * confidential transfer's proofs needs the sender's balance, inside the SDK; see api/README.md.)
 */
import { availableBalance, type ConfidentialKeyset, decryptPendingBalance } from "@cpay/sdk/confidential";

type ConfidentialState = Parameters<typeof availableBalance>[0];

/**
 * Whether the confidential balance is non-zero: the available balance, or an incoming credit not
 * applied yet (an agent's pending credits wait while one of its confidential holds is open).
 */
export function hasConfidentialBalance(state: ConfidentialState, keys: ConfidentialKeyset): boolean {
  if (availableBalance(state, keys) > 0n) return true;
  if (state.pendingBalanceCreditCounter === 0n) return false;
  try {
    return decryptPendingBalance(state, keys) > 0n;
  } catch {
    // A pending half that does not decrypt below 2^32 is certainly not zero.
    return true;
  }
}
