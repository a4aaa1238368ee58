/**
 * A settle whose API process died mid-way, driven step by step as `api/src/x402`'s settle takes
 * them (the settlement claimed `sending`, the fee reserve's co-signature, the signature noted, the
 * transaction sent) and stopped where the process died: nothing after the last step given is done,
 * so the claim is left `sending` for the facilitator's recovery to settle from the chain.
 */
import { createHash } from "node:crypto";
import type { RunningService } from "@cpay/api";
import {
  type Base64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type Transaction,
  type TransactionWithinSizeLimit,
  type TransactionWithLifetime,
} from "@solana/kit";
import type { PaymentPayload } from "@x402/core/types";

export interface CrashedSettlement {
  readonly messageHash: string;
  readonly signature: string;
}

/**
 * Claims `payment` for `accountId` as settle does and co-signs it as the fee reserve; sends it when
 * `sent` (the process died after sending), else not (it died before). The claim is dated `createdAt`.
 */
export async function crashedSettlement(
  service: RunningService,
  input: {
    readonly payment: PaymentPayload;
    readonly accountId: string;
    readonly payer: string;
    readonly sent: boolean;
    readonly createdAt: Date;
  },
): Promise<CrashedSettlement> {
  const { context } = service;
  const wire = getBase64Encoder().encode(input.payment.payload.transaction as Base64EncodedWireTransaction);
  const transaction = getTransactionDecoder().decode(wire);
  const messageHash = createHash("sha256").update(Uint8Array.from(transaction.messageBytes)).digest("hex");
  const [dictionary] = await context.feePayer.signTransactions([
    transaction as Transaction & TransactionWithinSizeLimit & TransactionWithLifetime,
  ]);
  const signed = { ...transaction, signatures: { ...transaction.signatures, ...dictionary } };
  const signature = getSignatureFromTransaction(signed);
  await context.db.transaction((tx) =>
    tx.insert(context.db.tables.x402Settlements).values({
      messageHash,
      accountId: input.accountId,
      network: input.payment.accepted.network,
      signature,
      payer: input.payer,
      shape: "transfer_checked",
      status: "sending",
      createdAt: input.createdAt.toISOString(),
    }),
  );
  if (input.sent) await context.chain.sendTransaction(new Uint8Array(getTransactionEncoder().encode(signed)));
  return { messageHash, signature };
}
