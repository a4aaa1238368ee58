/**
 * `@cpay/sdk/sealed`: what a browser needs to read its own amounts (README.md). Browser-safe: noble
 * only, no `node:` module, no zk-sdk.
 */

export {
  type AgentBudgetAnswer,
  agentBudgetBinding,
  type RemainingBudget,
  remainingBudgetOf,
} from "./agent-budget";
export { deriveAgentViewingKeys, exportAgentSecret } from "./agent-keys";
export { isSealedError, SealedError, type SealedErrorCode } from "./errors";
export { holdTransactionId } from "./hold-id";
export { bigIntToLittleEndian, littleEndianToBigInt } from "./little-endian";
export { sealAmountToViewer } from "./seal-to-viewer";
export {
  detailsOpenerFor,
  MAX_SEALED_MEMO_BYTES,
  type OpenedTransferDetails,
  openTransferDetails,
  SEALED_DETAILS_LENGTH,
  type SealedDirection,
  sealTransferDetails,
} from "./transfer-details";
export { deriveViewingKeys, importAccountSecret, type ViewingKeys } from "./viewing-keys";
