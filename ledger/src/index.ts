/**
 * `@cpay/ledger`: the records and their transitions, applied inside the caller's database
 * transactions. The API and the indexer move the same transfer and hold rows, with the
 * same guards and the same outbox facts — so whichever observes a fact first records it, once.
 * The database itself is `@cpay/ledger/database`; ids are `@cpay/ledger/ids`.
 */
export { accountByAddress, nameOfAddress } from "./accounts/account-by-address";
export { type Decision, recordDecision, recordDecisionIn } from "./approvals/record-decision";
export type {
  AccountRow,
  ApiKeyRow,
  EnrollmentTokenRow,
  EventRow,
  HoldRow,
  PasskeyRow,
  SessionRow,
  TransferRow,
  WebauthnChallengeRow,
} from "./db/rows";
export { holdDecidedFact, holdRequestedFact } from "./events/hold-events";
export { policyUpdatedFact } from "./events/policy-events";
export { type EventFact, type EventType, type OutboxContext, recordEvent } from "./events/record-event";
export { type HeldInput, type HeldOutcome, markHeld, markHeldIn } from "./transfers/mark-held";
export { recordTransferUsage, type TransferUsage, usageIncrementOf } from "./transfers/record-usage";
export { isTransferOf, mintOfTransfer, type ObservedTransfer } from "./transfers/transfer-binding";
export {
  receivedTransferFact,
  recordTransferEvent,
  type TransferEventType,
  transferEventFact,
} from "./transfers/transfer-events";
export {
  IllegalTransferTransition,
  NOT_LANDED,
  type TransferPhase,
  type TransferState,
  type TransferStatus,
} from "./transfers/transfer-states";
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
  type SubmittedInput,
  type SubmittingTransfer,
  submittingTransferRow,
  withSignature,
} from "./transfers/transfer-transitions";
