/**
 * What a settled payment did, read from the landed transaction at `confirmed`, never from the
 * request: it succeeded, and its own instructions and the CPIs its meta records show exactly one
 * transfer paying the requirement (paying-transfer.ts). Between verification and landing the state
 * may have changed (an agent's policy, a balance): whatever the simulation showed, the record says
 * what the chain did, as `@x402/svm`'s facilitator re-reads a smart wallet's settled transfer.
 */
import { confirmedTransaction, type TransactionRecord } from "@cpay/sdk/chain";
import type { ServiceContext } from "../core/service-context";
import { decodeWireMessage } from "../reserve/message-instructions";
import { payingTransfer } from "./paying-transfer";
import type { PaymentShape } from "./payment-shapes";
import { innerTransfersOf, type TokenTransfer, tokenTransferOf } from "./token-transfers";
import type { TX402Requirements } from "./x402-contracts";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

export interface LandedPayment {
  readonly record: TransactionRecord;
  readonly transfer: TokenTransfer;
}

/** The landed payment `signature`'s paying transfer, or throws X402Refusal (it failed, or paid wrong). */
export async function landedPayment(
  service: ServiceContext,
  signature: string,
  requirements: TX402Requirements,
  shape: PaymentShape,
  feePayer: string,
): Promise<LandedPayment> {
  const record = await confirmedTransaction(service.chain, signature);
  if (record === null) {
    throw new X402Refusal(X402_REASONS.notConfirmed, `transaction ${signature} is not known to the cluster`);
  }
  return paymentLandedIn(record, requirements, shape, feePayer);
}

/** The paying transfer of the landed transaction `record`, or throws X402Refusal (it failed, or paid wrong). */
export async function paymentLandedIn(
  record: TransactionRecord,
  requirements: TX402Requirements,
  shape: PaymentShape,
  feePayer: string,
): Promise<LandedPayment> {
  const { signature } = record;
  if (record.err !== null) {
    throw new X402Refusal(
      X402_REASONS.transactionFailed,
      `transaction ${signature} landed and failed: ${JSON.stringify(record.err)}; nothing was paid`,
    );
  }
  const keys = [
    ...record.accountKeys,
    ...record.loadedAddresses.writable,
    ...record.loadedAddresses.readonly,
  ];
  const topLevel = decodeWireMessage(record.wire).instructions.flatMap((ix) => tokenTransferOf(ix) ?? []);
  const invoked = innerTransfersOf(record.innerInstructions, keys);
  try {
    return {
      record,
      transfer: await payingTransfer([...topLevel, ...invoked], requirements, shape, feePayer),
    };
  } catch (error) {
    if (!(error instanceof X402Refusal)) throw error;
    throw new X402Refusal(
      X402_REASONS.notConfirmed,
      `transaction ${signature} landed but did not pay the requirement: ${error.message}`,
      error.payer,
    );
  }
}
