// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { type Decision, recordDecision, recordDecisionIn } from "@cpay/ledger";
