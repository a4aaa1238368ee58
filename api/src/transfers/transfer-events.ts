// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { recordTransferEvent, type TransferEventType } from "@cpay/ledger";
