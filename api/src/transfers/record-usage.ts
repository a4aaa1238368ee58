// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { recordTransferUsage, type TransferUsage, usageIncrementOf } from "@cpay/ledger";
