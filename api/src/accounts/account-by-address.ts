// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { accountByAddress, nameOfAddress } from "@cpay/ledger";
