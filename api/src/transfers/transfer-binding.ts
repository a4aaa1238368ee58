// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { isTransferOf, mintOfTransfer, type ObservedTransfer } from "@cpay/ledger";
