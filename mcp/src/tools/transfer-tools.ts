/** Reading transfers: one by id, or the account's latest. Neither ever shows an amount. */
import { z } from "zod";
import { pagingFields, transferIdField, transferStatusField } from "./fields";
import { READ_ONLY, type ToolDefinition } from "./tool-definition";

export const getTransferTool = {
  name: "get_transfer",
  title: "Get a transfer",
  description:
    'One transfer of this account by its id: its status ("pending", "confirmed" or "failed"), recipient, whether it is confidential, its on-chain signature, and, while it waits for a human\'s approval, the held transaction and its expiry. Amounts are never shown.',
  inputSchema: z.strictObject({ transfer_id: transferIdField }),
  annotations: READ_ONLY,
} as const satisfies ToolDefinition;

export const listTransfersTool = {
  name: "list_transfers",
  title: "List transfers",
  description:
    "This account's transfers, newest first (sent and received), with paging and an optional status filter. Amounts are never shown.",
  inputSchema: z.strictObject({
    ...pagingFields,
    status: transferStatusField,
    direction: z
      .enum(["sent", "received"])
      .optional()
      .describe('Only transfers this account "sent", or only those it "received" (confirmed ones).'),
  }),
  annotations: READ_ONLY,
} as const satisfies ToolDefinition;
