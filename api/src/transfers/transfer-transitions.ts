// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export {
  type FailedInput,
  insertSubmittingTransfer,
  insertSubmittingTransferIn,
  isoOfUnixSeconds,
  markConfirmed,
  markConfirmedIn,
  markFailed,
  markFailedIn,
  markSubmitted,
  markSubmittedIn,
  NOT_LANDED,
  type SubmittedInput,
  type SubmittingTransfer,
  withSignature,
} from "@cpay/ledger";
