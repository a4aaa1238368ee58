// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { type EventFact, type EventType, type OutboxContext, recordEvent } from "@cpay/ledger";
