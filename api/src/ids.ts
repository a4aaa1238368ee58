// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export * from "@cpay/ledger/ids";
