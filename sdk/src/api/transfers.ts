/** `/v1/transfers` contracts (spec 2.1, 4.1-4.3). Amounts are accepted, never returned. */
import { z } from "zod";
import { ZDecimalAmount, ZPage, ZPaging, ZSignature, ZTimestamp, zId } from "./common";

/** The longest memo accepted, in UTF-8 bytes (it is encrypted into the on-chain transfer record). */
export const MAX_API_MEMO_BYTES = 200;

export const ZTransferStatus = z.enum(["pending", "confirmed", "failed"]);

export const ZCreateTransferRequest = z
  .strictObject({
    to: z
      .string()
      .min(1)
      .max(120)
      .meta({ description: "Recipient `@handle` (also `@owner/agent`) or base58 Solana address" }),
    amount: ZDecimalAmount,
    asset: z.string().min(1).max(16).default("USDG"),
    confidential: z.boolean().default(true),
    memo: z
      .string()
      .refine((memo) => Buffer.byteLength(memo, "utf8") <= MAX_API_MEMO_BYTES, {
        message: `must be at most ${MAX_API_MEMO_BYTES} bytes of UTF-8`,
      })
      .optional()
      .meta({ description: "Encrypted to sender and recipient; never returned" }),
  })
  .meta({ id: "CreateTransferRequest" });
export type TCreateTransferRequest = z.input<typeof ZCreateTransferRequest>;

/** What a held agent transfer adds: it waits for its owner (spec 3.2). */
export const ZApprovalHold = z.object({
  transaction_id: zId("tx"),
  expires_at: ZTimestamp,
});

const transferFields = {
  transfer_id: zId("tr"),
  status: ZTransferStatus,
  to: z.string(),
  confidential: z.boolean(),
  tx_signature: ZSignature,
  created_at: ZTimestamp,
  /** Present (non-null) only for an agent transfer held for human approval. */
  approval: ZApprovalHold.nullable(),
};

/**
 * What the sender paid the service besides the amount, in the transfer's asset (a decimal string,
 * `"0"` when nothing). A public service fee, never a transfer's amount.
 */
export const ZTransferFees = z
  .object({
    account_opening: ZDecimalAmount.meta({
      description:
        "The account-opening fee (`ACCOUNT_OPENING_FEE_USDG`, default \"1\"): charged when the transfer made the service open the recipient's token account for an owner outside the service (an external address with no account yet), moved from the sender's public balance (an agent's owner's) to the service's fee account in the transfer's own transaction. \"0\" otherwise, and always for a confidential transfer (its recipient's account must exist already).",
    }),
  })
  .meta({ id: "TransferFees" });
export type TTransferFees = z.infer<typeof ZTransferFees>;

/** The create response (spec 4.1): no `from`, no `confirmed_at`, never an amount. */
export const ZTransfer = z.object({ ...transferFields, fees: ZTransferFees }).meta({ id: "Transfer" });
export type TTransfer = z.infer<typeof ZTransfer>;

/** How the caller stands to a transfer: it sent it, or it was paid by it. */
export const ZTransferDirection = z.enum(["sent", "received"]);

/** The get response (spec 4.2) and list item. */
export const ZTransferDetail = z
  .object({
    ...transferFields,
    /** Null while the transfer is being submitted, and for one that failed before any transaction landed. */
    tx_signature: ZSignature.nullable(),
    from: z.string().meta({ description: "The sender's `@handle` (or address)" }),
    confirmed_at: ZTimestamp.nullable().meta({
      description:
        "When the service's indexer saw the transfer confirmed on chain (`confirmed` commitment), to the millisecond; never before `created_at`. Null until then, and for a failed transfer.",
    }),
    direction: ZTransferDirection.meta({
      description:
        "`sent` by the caller's account, or `received` by it (a recipient sees a transfer only once `confirmed`; `approval` is then null)",
    }),
    sealed_details: z.string().nullable().meta({
      description:
        "The amount and memo sealed to the sender and the recipient only (base64, 420 characters; open it with `@cpay/sdk/sealed` `openTransferDetails`, bound to `transfer_id`). Null for a transfer made before sealing existed, or one the service did not create.",
    }),
  })
  .meta({ id: "TransferDetail" });
export type TTransferDetail = z.infer<typeof ZTransferDetail>;

export const ZListTransfersQuery = ZPaging.extend({
  status: ZTransferStatus.optional(),
  direction: ZTransferDirection.optional().meta({
    description: "Only transfers the account `sent`, or only those it `received` (confirmed ones)",
  }),
  from: ZTimestamp.optional().meta({ description: "Only transfers created after this time" }),
  to: ZTimestamp.optional().meta({ description: "Only transfers created before this time" }),
}).strict();
export type TListTransfersQuery = z.input<typeof ZListTransfersQuery>;

export const ZTransferList = ZPage.extend({ transfers: z.array(ZTransferDetail) }).meta({
  id: "TransferList",
});
export type TTransferList = z.infer<typeof ZTransferList>;
