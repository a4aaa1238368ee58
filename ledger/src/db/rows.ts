/** Row types of the tables, as the services read them. */
import type { Tables } from "./schema";

export type AccountRow = Tables["accounts"]["$inferSelect"];
export type ApiKeyRow = Tables["apiKeys"]["$inferSelect"];
export type TransferRow = Tables["transfers"]["$inferSelect"];
export type AgentTransactionRow = Tables["agentTransactions"]["$inferSelect"];
export type EventRow = Tables["events"]["$inferSelect"];
