// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export { type HeldInput, type HeldOutcome, markHeld, markHeldIn } from "@cpay/ledger";
