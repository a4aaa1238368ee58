// Moved to @cpay/ledger; this re-export goes once callers import it directly.
export type { AccountRow, AgentTransactionRow, ApiKeyRow, EventRow, TransferRow } from "@cpay/ledger";
