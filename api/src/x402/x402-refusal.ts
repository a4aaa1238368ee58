/**
 * Why the facilitator refuses a payment, as data: each reason is the string `@x402/svm`'s own
 * `exact` facilitator answers for the same rule (so a resource server or client that knows those
 * reads ours alike), and a few of cpay's own, prefixed `cpay_`, for what only a facilitator of cpay
 * accounts checks. A refusal is answered in x402's shape (`isValid: false` / `success: false`, the
 * reason, a message that says what to fix), never as an HTTP error: the request was understood.
 */

export const X402_REASONS = {
  unsupportedScheme: "invalid_exact_svm_unsupported_scheme",
  unsupportedVersion: "invalid_x402_version",
  networkMismatch: "invalid_exact_svm_network_mismatch",
  missingFeePayer: "invalid_exact_svm_payload_missing_fee_payer",
  feePayerNotManaged: "invalid_exact_svm_fee_payer_not_managed_by_facilitator",
  undecodable: "invalid_exact_svm_payload_transaction_could_not_be_decoded",
  feePayerMismatch: "invalid_exact_svm_fee_payer_mismatch",
  signatureInvalid: "invalid_exact_svm_payload_signature_invalid",
  lookupTablesUnavailable: "invalid_exact_svm_smart_wallet_alt_resolution_not_available",
  instructionsLength: "invalid_exact_svm_payload_transaction_instructions_length",
  computeLimit: "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
  computeLimitTooHigh:
    "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high",
  computePrice: "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
  computePriceTooHigh:
    "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
  noTransfer: "invalid_exact_svm_payload_no_transfer_instruction",
  programNotAllowed: "invalid_exact_svm_smart_wallet_program_not_allowed",
  unknownFourth: "invalid_exact_svm_payload_unknown_fourth_instruction",
  unknownFifth: "invalid_exact_svm_payload_unknown_fifth_instruction",
  unknownSixth: "invalid_exact_svm_payload_unknown_sixth_instruction",
  unknownSeventh: "invalid_exact_svm_payload_unknown_seventh_instruction",
  feePayerNotIsolated: "invalid_exact_svm_smart_wallet_fee_payer_not_isolated",
  feePayerTransferringFunds: "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
  mintMismatch: "invalid_exact_svm_payload_mint_mismatch",
  recipientMismatch: "invalid_exact_svm_payload_recipient_mismatch",
  amountMismatch: "invalid_exact_svm_payload_amount_mismatch",
  memoCount: "invalid_exact_svm_payload_memo_count",
  memoMismatch: "invalid_exact_svm_payload_memo_mismatch",
  simulationFailed: "invalid_exact_svm_transaction_simulation_failed",
  smartWalletSimulationFailed: "invalid_exact_svm_smart_wallet_simulation_failed",
  noTransferInSimulation: "invalid_exact_svm_smart_wallet_no_transfer_in_simulation",
  multipleTransfers: "invalid_exact_svm_smart_wallet_multiple_matching_transfers",
  duplicateSettlement: "duplicate_settlement",
  transactionFailed: "invalid_exact_svm_transaction_failed",
  notConfirmed: "post_settlement_transfer_not_confirmed",
  payToNotAccount: "cpay_pay_to_not_this_account",
  unsupportedAsset: "cpay_unsupported_asset",
} as const;

export type X402Reason = (typeof X402_REASONS)[keyof typeof X402_REASONS];

/** A payment refused: `reason` (X402_REASONS), `message` for whoever fixes it, the payer if known. */
export class X402Refusal extends Error {
  override readonly name = "X402Refusal";
  constructor(
    readonly reason: X402Reason,
    message: string,
    readonly payer = "",
  ) {
    super(message);
  }
}
