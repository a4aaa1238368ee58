/** Reading transfers: one by id, or the account's latest. Neither ever shows an amount. */
import { z } from "zod";
import { pagingFields, transferIdField, transferStatusField } from "./fields";
import { readOnlyTool } from "./tool-definition";

export const getTransferTool = readOnlyTool(
  "get_transfer",
  "Get a transfer",
  { transfer_id: transferIdField },
  [
    'One transfer of this account by its id: its status ("pending", "confirmed" or "failed"), recipient, whether it is confidential, its on-chain signature, and, while it waits for a human\'s approval, the held transaction and its expiry.',
    "Amounts are never shown.",
  ],
);

export const listTransfersTool = readOnlyTool(
  "list_transfers",
  "List transfers",
  {
    ...pagingFields,
    status: transferStatusField,
    direction: z
      .enum(["sent", "received"])
      .optional()
      .describe('Only transfers this account "sent", or only those it "received" (confirmed ones).'),
  },
  [
    "This account's transfers, newest first (sent and received), with paging and an optional status filter.",
    "Amounts are never shown.",
  ],
);
