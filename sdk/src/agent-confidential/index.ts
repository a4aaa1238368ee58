/**
 * `@cpay/sdk/agent-confidential`: confidential spends of an agent's (PDA-owned) token account under
 * its on-chain policy — account setup, deposit / apply / withdraw through the program, the limit
 * proofs, the prover state rebuilt from chain, transfers that execute or hold, and hold decisions.
 * Flows, byte formats and failure behaviour are documented in this folder's README.md.
 */

export { type AgentAccount, agentAccountOf, readAgentAccount, resolveAgentAddress } from "./agent-account";
export {
  type SetupAgentConfidentialAccountInput,
  setupAgentConfidentialAccount,
} from "./agent-account-setup";
export { type AgentApplyPendingBalanceInput, applyAgentPendingBalance } from "./agent-apply-pending-balance";
export {
  AGENT_TRANSFER_STEPS,
  type AgentConfidentialTransferInput,
  type AgentConfidentialTransferResult,
  type AgentTransferRelay,
  transferAgentConfidential,
} from "./agent-confidential-transfer";
export { type AgentDepositInput, depositAgentConfidential } from "./agent-deposit";
export {
  type AgentTransferProofInput,
  type AgentTransferProofs,
  buildAgentTransferProofs,
  buildAgentTransferProofsConcurrently,
  transferBound,
} from "./agent-transfer-proofs";
export { type AgentWithdrawInput, withdrawAgentConfidential } from "./agent-withdraw";
export { agentContextAuthority, closeAgentProofContexts } from "./close-agent-contexts";
export {
  clusterUnixTime,
  SECONDS_PER_DAY,
  SYSVAR_CLOCK_ADDRESS,
  unixTimeOf,
  utcDayIndex,
} from "./cluster-clock";
export {
  approveConfidentialHold,
  closeExpiredHold,
  type HoldDecisionInput,
  rejectHold,
} from "./confidential-holds";
export {
  agentPolicyErrorOf,
  agentSpendRefusalOf,
  isPolicyLimitExceeded,
  type PolicyLimit,
  PolicyLimitExceededError,
} from "./errors";
export {
  type AgentTransferContexts,
  buildAgentConfidentialApplyInstruction,
  buildAgentConfidentialCloseContextsInstruction,
  buildAgentConfidentialConfigureInstructions,
  buildAgentConfidentialDepositInstruction,
  buildAgentConfidentialTransferInstruction,
  buildAgentConfidentialWithdrawInstruction,
  buildConfidentialPendingApproveInstruction,
  buildConfidentialPendingCloseExpiredInstruction,
  buildConfidentialPendingRejectInstruction,
  MAX_CONTEXTS_PER_CLOSE,
} from "./instructions";
export {
  type DailySpendInput,
  dailyLimitCiphertext,
  parseValidityProofContext,
  transactionLimitCiphertext,
  transferAmountCiphertext,
  VALIDITY_PROOF_CONTEXT_LENGTH,
  type ValidityProofContext,
} from "./limit-ciphertexts";
export {
  buildLimitProofs,
  type ForgedLimits,
  type LimitProofInput,
  type LimitProofs,
  limitValues,
  rangeBitLengths,
  unsafeBuildLimitProofsWithForgedLimits,
} from "./limit-proofs";
export { listAgentPendingTransactions, readHold } from "./list-pending-transactions";
export { CONFIDENTIAL_HOLD_LENGTH, decodeHold, type Hold, type PinnedContexts } from "./pending-transaction";
export {
  decodePolicySpendState,
  type PolicySpendState,
  policySpendStateOf,
  readPolicySpendState,
} from "./policy-account";
export { encryptsTotal, type ProverState, proverStateOf, readProverState } from "./prover-state";
export {
  type AgentSpendFacts,
  decideAgentSpend,
  type SpendDecision,
  spentConfidentiallyToday,
} from "./spend-decision";
export {
  encryptedTotalOfTransfer,
  readTransferValidityContext,
  verifiedValidityContextOf,
} from "./transfer-usage";
