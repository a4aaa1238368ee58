/**
 * The heart of the `confidential` scheme's verification (docs/x402-confidential-scheme.md, rules 4
 * and 5): does this confidential transfer pay exactly the requirement's amount? Answered from public
 * data only — the transfer's verified ciphertext-validity context, the payer's amount proof, the
 * merchant's public ElGamal key — never a secret of the merchant's.
 *
 * The validity context proves each half's commitment C = x·G + r·H and its source handle D = r·P
 * for one r; the amount proof (a ZeroCiphertext proof, cpay's balance-proof format) proves that
 * A - amount·G encrypts zero under the source key, where A combines the halves as Token-2022 splits
 * an amount. Together they force x = amount. The arithmetic and the proof check are the SDK's
 * (`transferAmountCiphertext`, `verifyBalanceProof`): one implementation of each.
 *
 * Pure: the caller reads the context account and the transfer's commitments; nothing here touches
 * the chain, so a refusal is decided the same way on verify, on settle and after landing.
 */
import { transferAmountCiphertext, verifiedValidityContextOf } from "@cpay/sdk/agent-confidential";
import { isConfidentialError, verifyBalanceProof } from "@cpay/sdk/confidential";

/** Why the amount check refuses, as the scheme document names them. */
export const CONFIDENTIAL_AMOUNT_REASONS = {
  contextNotVerified: "cpay_confidential_context_not_verified",
  recipientKeyMismatch: "cpay_confidential_recipient_key_mismatch",
  contextMismatch: "cpay_confidential_context_mismatch",
  amountProofInvalid: "cpay_confidential_amount_proof_invalid",
  amountMismatch: "cpay_confidential_amount_mismatch",
} as const;

export type ConfidentialAmountReason =
  (typeof CONFIDENTIAL_AMOUNT_REASONS)[keyof typeof CONFIDENTIAL_AMOUNT_REASONS];

/** The 32-byte Pedersen commitments of the amount's halves (lo: 16 bits, hi: 32 bits). */
export interface AmountCommitments {
  readonly lo: Uint8Array;
  readonly hi: Uint8Array;
}

export interface ConfidentialAmountInput {
  /** The validity context account the transfer consumes, as read from the chain. */
  readonly context: { readonly owner: string; readonly data: Uint8Array };
  /**
   * The commitments the transfer itself carries (its auditor ciphertexts' first 32 bytes), which
   * Token-2022 requires to equal the context's when it executes. Absent when the transaction does
   * not carry them (an agent's program reads the context itself); then settlement compares the
   * landed transfer's with the accepted `commitments`.
   */
  readonly transferCommitments?: AmountCommitments;
  /** The ElGamal key of the `payTo` token account: the amount must be readable by the merchant. */
  readonly merchantElgamalPubkey: Uint8Array;
  /** `payload.amountProof`: base64 of the balance-proof v1 format over A - amount·G. */
  readonly amountProof: string;
  /** The requirement's amount in base units. */
  readonly amount: bigint;
}

export type ConfidentialAmountVerdict =
  | { readonly accepted: true; readonly amount: bigint; readonly commitments: AmountCommitments }
  | { readonly accepted: false; readonly reason: ConfidentialAmountReason; readonly message: string };

/** Accepts the transfer when it provably pays `amount` to the merchant's key; else names why not. */
export function verifyConfidentialAmount(input: ConfidentialAmountInput): ConfidentialAmountVerdict {
  const refuse = (reason: ConfidentialAmountReason, message: string): ConfidentialAmountVerdict => ({
    accepted: false,
    reason,
    message,
  });
  const verified = verifiedValidityContextOf(input.context);
  if (verified === null) {
    return refuse(
      CONFIDENTIAL_AMOUNT_REASONS.contextNotVerified,
      "the transfer's validity context is not a ciphertext-validity context the ZK ElGamal Proof program verified",
    );
  }
  const { context } = verified;
  if (!sameBytes(context.destinationPubkey, input.merchantElgamalPubkey)) {
    return refuse(
      CONFIDENTIAL_AMOUNT_REASONS.recipientKeyMismatch,
      "the amount is encrypted to another ElGamal key than the payTo account's",
    );
  }
  const commitments = { lo: context.groupedLo.slice(0, 32), hi: context.groupedHi.slice(0, 32) };
  const carried = input.transferCommitments;
  if (
    carried !== undefined &&
    !(sameBytes(carried.lo, commitments.lo) && sameBytes(carried.hi, commitments.hi))
  ) {
    return refuse(
      CONFIDENTIAL_AMOUNT_REASONS.contextMismatch,
      "the validity context's commitments are not the ones the transfer carries",
    );
  }
  let proven: bigint;
  try {
    proven = verifyBalanceProof({
      proof: input.amountProof,
      elgamalPubkey: context.sourcePubkey,
      availableCiphertext: transferAmountCiphertext(context),
    });
  } catch (error) {
    if (!isConfidentialError(error)) throw error;
    return refuse(
      CONFIDENTIAL_AMOUNT_REASONS.amountProofInvalid,
      `the amount proof does not open the transfer's commitments (${error.message}); prove the amount of this transfer with the payer's key`,
    );
  }
  if (proven !== input.amount) {
    return refuse(
      CONFIDENTIAL_AMOUNT_REASONS.amountMismatch,
      // The proven amount is not repeated: the facilitator tells it to nobody.
      "the transfer does not pay the requirement's amount",
    );
  }
  return { accepted: true, amount: proven, commitments };
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left).equals(right);
}
