/**
 * The record transitions another process applies inside its own database transactions: the
 * indexer moves the same transfer and agent-transaction rows, with the same guards and the same
 * outbox facts, as the API does — so whichever observes a fact first records it, once.
 */
export { accountByAddress, nameOfAddress } from "./accounts/account-by-address";
export { recordDecisionIn } from "./approvals/record-decision";
export type { AccountRow, AgentTransactionRow, TransferRow } from "./db/rows";
export { type EventFact, type OutboxContext, recordEvent } from "./events/record-event";
export { markHeldIn } from "./transfers/mark-held";
export {
  isTransferOf,
  mintOfTransfer,
  type ObservedTransfer,
} from "./transfers/transfer-binding";
export {
  isoOfUnixSeconds,
  markConfirmedIn,
  markFailedIn,
  markSubmittedIn,
  NOT_LANDED,
  withSignature,
} from "./transfers/transfer-transitions";
