/**
 * `@cpay/sdk/confidential`: Token-2022 confidential transfers over the chain port — keys, account
 * setup, deposit / apply / transfer / withdraw, balances and balance proofs, encrypted memos,
 * encrypted running totals.
 * Formats and guarantees are documented in this folder's README.md.
 */

export {
  type ConfidentialReadiness,
  confidentialReadiness,
  DEFAULT_MAXIMUM_PENDING_CREDITS,
  isConfidentialReady,
  type SetupConfidentialAccountInput,
  setupConfidentialAccount,
} from "./account-setup";
export { MAX_CONFIDENTIAL_AMOUNT } from "./amounts";
export { applyPendingBalance, applyPendingBalanceInstruction } from "./apply-pending-balance";
export { type ApproveConfidentialAccountInput, approveConfidentialAccount } from "./approve-account";
export { availableBalance, decryptAeBalance, decryptElGamal, decryptPendingBalance } from "./balance";
export {
  BALANCE_PROOF_VERSION,
  createBalanceProof,
  verifyBalanceProof,
  verifyBalanceProofOnChain,
} from "./balance-proof";
export { closeProofContexts } from "./close-proof-contexts";
export { type DepositInput, depositConfidential } from "./deposit";
export {
  addToEncryptedTotal,
  decryptEncryptedTotal,
  ENCRYPTED_TOTAL_LENGTH,
  ENCRYPTED_TOTAL_LO_BITS,
  ENCRYPTED_TOTAL_VERSION,
  emptyEncryptedTotal,
  encryptedTotalFromBase64,
  encryptedTotalToBase64,
  sumEncryptedTotals,
} from "./encrypted-total";
export {
  ConfidentialError,
  type ConfidentialErrorCode,
  type ConfidentialStep,
  type ContextAccountOutcome,
  isConfidentialError,
} from "./errors";
export { exportConfidentialSecret, importConfidentialSecret, KEY_EXPORT_VERSION } from "./key-export";
export {
  AE_KDF_INFO,
  AGENT_SECRET_KDF_INFO,
  type ConfidentialKeyset,
  deriveAgentConfidentialSecret,
  deriveConfidentialKeys,
  ELGAMAL_KDF_INFO,
  generateConfidentialSecret,
} from "./keys";
export {
  decryptMemo,
  encryptMemo,
  MAX_MEMO_PLAINTEXT_BYTES,
  MEMO_BUCKETS,
  MEMO_ENVELOPE_OVERHEAD,
  MEMO_KDF_INFO,
  type MemoParties,
} from "./memo";
export { buildTransferProofsOnPool } from "./pooled-transfer-proofs";
export { configureProofPool, MAX_PROOF_WORKERS, proofPoolState } from "./proof-pool";
export { type PublicTransferInput, transferPublic } from "./public-transfer";
export {
  findTransferRecords,
  readTransferMemo,
  type TransactionLogs,
  type TransferMemo,
  type TransferRecordEvent,
  transferMemoPartiesOnChain,
} from "./read-transfer-memo";
export {
  type ConfidentialAccountState,
  type ConfidentialMint,
  confidentialMintOf,
  findTokenAccount,
  readConfidentialMint,
  readConfidentialState,
  readTokenAccount,
  type TokenAccountState,
  tokenAccountOf,
} from "./token-account";
export { tokenAccountOwnerOf } from "./token-account-owner";
export {
  loadTokenConfidentialHelpers,
  useZkSdkNodeBuildForBundlerImports,
} from "./token-confidential-helpers";
export {
  type ConfidentialTransferInput,
  type ConfidentialTransferResult,
  TRANSFER_STEPS,
  transferConfidential,
} from "./transfer";
export {
  buildTransferProofs,
  encryptTransferAmount,
  type TransferProofInput,
  type TransferProofs,
} from "./transfer-proofs";
export {
  TRANSFER_MEMO_AAD_DOMAIN,
  type TransferRecordFields,
  type TransferRecordRequest,
  transferMemoAssociatedData,
} from "./transfer-record";
export { type WithdrawInput, withdrawConfidential } from "./withdraw";
/** The zk-sdk classes of the one instance this SDK uses (pass only these to the SDK and token-2022). */
export * as zk from "./zk-sdk";
