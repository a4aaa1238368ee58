/**
 * Held agent payments, for their owner: the list, and the decision. Approving moves money; both
 * decisions are final, and a second decision on the same transaction is refused, so repeating one
 * changes nothing more. Only an owner's API key may decide: never an agent's own.
 */
import { idField } from "./fields";
import { defineTool, readOnlyTool } from "./tool-definition";

const transaction = {
  transaction_id: idField(
    "tx",
    "The held transaction's id, \"tx_...\" as list_pending_approvals (or a held payment's answer) names it.",
  ),
};

/** A decision: final, so repeating it changes nothing more; `openWorldHint` where it executes on-chain. */
const deciding = (openWorldHint: boolean) => ({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint,
});

export const listPendingApprovalsTool = readOnlyTool(
  "list_pending_approvals",
  "Payments waiting for approval",
  {},
  [
    "The owner's agents' payments held for human approval, with their recipients and expiry.",
    "Amounts are sealed to the owner, never shown here. Needs the owner's API key.",
  ],
);

export const approveTransactionTool = defineTool(
  "approve_transaction",
  "Approve a held payment",
  deciding(true),
  transaction,
  [
    "Approve one of the owner's agents' held payments: it is executed at once, under the spend policy in force now.",
    "Needs the owner's API key; an agent can never approve its own payments.",
  ],
);

export const rejectTransactionTool = defineTool(
  "reject_transaction",
  "Reject a held payment",
  deciding(false),
  transaction,
  [
    "Reject one of the owner's agents' held payments: it is discarded and nothing moves. Needs the owner's API key.",
  ],
);
