/**
 * Held agent payments, for their owner: the list, and the decision. Approving moves money; both
 * decisions are final, and a second decision on the same transaction is refused, so repeating one
 * changes nothing more. Only an owner's API key may decide: never an agent's own.
 */
import { z } from "zod";
import { idField } from "./fields";
import { READ_ONLY, type ToolDefinition } from "./tool-definition";

const transactionIdField = idField(
  "tx",
  "The held transaction's id, \"tx_...\" as list_pending_approvals (or a held payment's answer) names it.",
);

export const listPendingApprovalsTool = {
  name: "list_pending_approvals",
  title: "Payments waiting for approval",
  description:
    "The owner's agents' payments held for human approval, with their recipients and expiry. Amounts are sealed to the owner, never shown here. Needs the owner's API key.",
  inputSchema: z.strictObject({}),
  annotations: READ_ONLY,
} as const satisfies ToolDefinition;

export const approveTransactionTool = {
  name: "approve_transaction",
  title: "Approve a held payment",
  description:
    "Approve one of the owner's agents' held payments: it is executed at once, under the spend policy in force now. Needs the owner's API key; an agent can never approve its own payments.",
  inputSchema: z.strictObject({ transaction_id: transactionIdField }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export const rejectTransactionTool = {
  name: "reject_transaction",
  title: "Reject a held payment",
  description:
    "Reject one of the owner's agents' held payments: it is discarded and nothing moves. Needs the owner's API key.",
  inputSchema: z.strictObject({ transaction_id: transactionIdField }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;
