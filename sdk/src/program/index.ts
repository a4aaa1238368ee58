/**
 * Hand-written helpers on top of the generated agent-policy client: handles, PDAs, API <-> on-chain
 * policy units, instruction builders per flow, event parsing and error mapping.
 */

export {
  ActiveHoursError,
  type ActiveMinutes,
  ALL_DAY,
  formatActiveHours,
  MINUTES_PER_DAY,
  parseActiveHours,
} from "./active-hours";
export {
  AmountError,
  type AmountErrorCode,
  formatDecimalAmount,
  parseDecimalAmount,
  U64_MAX,
} from "./amounts";
export {
  type AgentPolicyErrorInfo,
  getAgentPolicyErrorDetails,
  getAgentPolicyErrorFromTransactionError,
  type ProgramErrorContext,
} from "./errors";
export {
  EventLogError,
  type LoggedAgentPolicyEvent,
  type ParsedAgentPolicyEvents,
  parseAgentPolicyEvents,
  type UnrecognizedProgramData,
} from "./events";
export {
  type AgentHandle,
  agentHandleOf,
  checkAccountHandle,
  type HandleErrorCode,
  HandleValidationError,
  MAX_ACCOUNT_HANDLE_BYTES,
  MAX_AGENT_HANDLE_BYTES,
  MAX_AGENT_NAME_BYTES,
  normalizeAccountHandle,
  normalizeAgentHandle,
  normalizeAgentName,
  normalizeHandle,
  normalizeHandleText,
  parseAgentHandle,
} from "./handles";
export {
  buildAgentCreateInstruction,
  buildAgentTransferInstruction,
  buildConfigInitializeInstruction,
  buildHandleRegisterInstruction,
  buildPendingApproveInstruction,
  buildPendingCloseExpiredInstruction,
  buildPendingRejectInstruction,
  buildPolicyUpdateInstruction,
  buildReceiptCloseInstruction,
  buildTransferRecordInstruction,
  HANDLE_KIND,
  type HandleKind,
  MAX_MEMO_BYTES,
  type ProgramConfig,
  RECEIPT_MIN_AGE_SLOTS,
  recipientHandleOf,
} from "./instructions";
export {
  type FactsOfLogs,
  factsOfLogs,
  type LandedFact,
  type LandedFacts,
  type LandedFactsOptions,
  type LandedHoldDecided,
  type LandedOther,
  type LandedPolicyUpdated,
  type LandedTransferExecuted,
  type LandedTransferHeld,
  landedFacts,
} from "./landed-facts";
export {
  assertTransferId,
  findAgentPda,
  findConfigPda,
  findHandlePda,
  findPendingTransactionPda,
  findPolicyPda,
  findProgramDataPda,
  findReceiptPda,
  handleHash,
  type PdaConfig,
  TRANSFER_ID_BYTES,
} from "./pdas";
export {
  type AssetInfo,
  type AssetTable,
  DEFAULT_APPROVAL_WINDOW_SECONDS,
  decodeSpendPolicy,
  decodeSpendPolicyUpdate,
  encodeSpendPolicy,
  encodeSpendPolicyUpdate,
  isEmptyPolicyUpdate,
  LIMIT_DECIMALS,
  MAX_ALLOWED_ASSETS,
  MAX_APPROVAL_WINDOW_SECONDS,
  MAX_RECIPIENT_PATTERNS,
  MIN_APPROVAL_WINDOW_SECONDS,
  type PolicyCodecOptions,
  PolicyValidationError,
  type PolicyValidationErrorCode,
  policyParamsFromAccount,
  type SpendPolicyInput,
  type SpendPolicyUpdateInput,
  type SpendPolicyView,
  type UsdgAmountInput,
} from "./policy-codec";
export {
  POLICY_REFUSALS,
  type PolicyRefusal,
  type PolicyRule,
  policyRefusalByName,
} from "./policy-refusals";
export { formatRecipientPattern, parseRecipientPattern, RecipientPatternError } from "./recipient-patterns";
export { recipientAllowed, type SpendRecipient, withinActiveHours } from "./spend-rules";
export * from "./upgradeable-loader";
export { USDG_DECIMALS } from "./usdg";
