/**
 * `@cpay/ledger`: the records and their transitions, applied inside the caller's database
 * transactions. The API and the indexer move the same transfer and agent-transaction rows, with the
 * same guards and the same outbox facts — so whichever observes a fact first records it, once.
 * The database itself is `@cpay/ledger/database`; ids are `@cpay/ledger/ids`.
 */
export { accountByAddress, nameOfAddress } from "./accounts/account-by-address";
export { type Decision, recordDecision, recordDecisionIn } from "./approvals/record-decision";
export type {
  AccountRow,
  AgentTransactionRow,
  ApiKeyRow,
  EnrollmentTokenRow,
  EventRow,
  PasskeyRow,
  SessionRow,
  TransferRow,
  WebauthnChallengeRow,
} from "./db/rows";
export { type EventFact, type EventType, type OutboxContext, recordEvent } from "./events/record-event";
export { type HeldInput, type HeldOutcome, markHeld, markHeldIn } from "./transfers/mark-held";
export { recordTransferUsage, type TransferUsage, usageIncrementOf } from "./transfers/record-usage";
export { isTransferOf, mintOfTransfer, type ObservedTransfer } from "./transfers/transfer-binding";
export { recordTransferEvent, type TransferEventType } from "./transfers/transfer-events";
export {
  type FailedInput,
  insertSubmittingTransfer,
  insertSubmittingTransferIn,
  isoOfUnixSeconds,
  markConfirmedIn,
  markFailed,
  markFailedIn,
  markSubmitted,
  markSubmittedIn,
  NOT_LANDED,
  type SubmittedInput,
  type SubmittingTransfer,
  withSignature,
} from "./transfers/transfer-transitions";
