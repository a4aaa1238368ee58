/** Agent transactions held for human approval (spec 2.5, 3.2, 4.7, 4.8). No plaintext amounts. */
import { z } from "zod";
import { ZSignature, ZTimestamp, zId } from "./common";

const ZSealedAmount = z.string().nullable().meta({
  description:
    "The held amount (and memo) sealed from the agent to the owner (base64, 420 characters; `@cpay/sdk/sealed` `openTransferDetails` with the owner's keys, bound to `transaction_id`). For a self-custody agent it is what the agent stated when it asked for the hold (the program enforces the limits on the real amount). Null when the service never learned it.",
});

export const ZPendingTransaction = z
  .object({
    transaction_id: zId("tx"),
    agent: z.string(),
    to: z.string(),
    confidential: z.boolean(),
    requested_at: ZTimestamp,
    expires_at: ZTimestamp,
    sealed_amount: ZSealedAmount,
  })
  .meta({ id: "PendingTransaction" });

export const ZPendingList = z.object({ pending: z.array(ZPendingTransaction) }).meta({ id: "PendingList" });
export type TPendingList = z.infer<typeof ZPendingList>;

/** States of a held agent transaction as the service names them. */
export const ZAgentTransactionStatus = z.enum(["pending_approval", "approved", "rejected", "expired"]);

/** What approve, reject and the read of one held transaction return: its state now. */
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
    sealed_amount: ZSealedAmount,
  })
  .meta({ id: "AgentTransaction" });
export type TAgentTransaction = z.infer<typeof ZAgentTransaction>;
