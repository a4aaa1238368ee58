/** Agent transactions held for human approval (spec 2.5, 3.2, 4.7, 4.8). No amounts. */
import { z } from "zod";
import { ZSignature, ZTimestamp, zId } from "./common";

export const ZPendingTransaction = z
  .object({
    transaction_id: zId("tx"),
    agent: z.string(),
    to: z.string(),
    confidential: z.boolean(),
    requested_at: ZTimestamp,
    expires_at: ZTimestamp,
  })
  .meta({ id: "PendingTransaction" });

export const ZPendingList = z.object({ pending: z.array(ZPendingTransaction) }).meta({ id: "PendingList" });
export type TPendingList = z.infer<typeof ZPendingList>;

/** States of a held agent transaction as the service names them. */
export const ZAgentTransactionStatus = z.enum(["pending_approval", "approved", "rejected", "expired"]);

/** What approve and reject return: the transaction's new state. */
export const ZAgentTransaction = z
  .object({
    transaction_id: zId("tx"),
    status: ZAgentTransactionStatus,
    agent: z.string(),
    to: z.string(),
    confidential: z.boolean(),
    transfer_id: zId("tr"),
    requested_at: ZTimestamp,
    expires_at: ZTimestamp,
    decided_at: ZTimestamp.nullable(),
    /** The transaction that executed (approve) or discarded (reject) the hold on-chain. */
    tx_signature: ZSignature.nullable(),
  })
  .meta({ id: "AgentTransaction" });
export type TAgentTransaction = z.infer<typeof ZAgentTransaction>;
