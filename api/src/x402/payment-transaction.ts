/**
 * The payment's transaction read at the trust boundary, as `@x402/svm`'s `exact` facilitator reads
 * it before any layout rule: it decodes (base64 wire format), account 0 (the fee payer) is the
 * facilitator's, and every other required signer has signed these exact message bytes (the fee
 * payer's slot is ours to fill). A message that loads accounts from address lookup tables is
 * refused as the official facilitator refuses it when its signer cannot resolve them: the fee
 * reserve signs only messages whose every account it can read from the bytes it signs
 * (reserve/spend-bound.ts); neither `@x402/svm`'s client nor cpay's agents use lookup tables.
 */
import { createHash } from "node:crypto";
import {
  type Address,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type ReadonlyUint8Array,
  verifySignature,
} from "@solana/kit";
import {
  type CompiledMessage,
  instructionsOf,
  type MessageInstruction,
} from "../reserve/message-instructions";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

export interface PaymentTransaction {
  /** The transaction as the payer signed it (the fee payer's signature slot still empty). */
  readonly wire: Uint8Array;
  readonly messageBytes: ReadonlyUint8Array;
  readonly message: CompiledMessage;
  /** SHA-256 of the message bytes, hex: the payment's identity whoever presents it. */
  readonly messageHash: string;
  readonly instructions: readonly MessageInstruction[];
  /** The blockhash it was signed with. */
  readonly blockhash: string;
}

/** Decodes `base64Wire` and checks fee payer and signatures (see the module doc), or throws X402Refusal. */
export async function readPaymentTransaction(
  base64Wire: string,
  feePayer: string,
): Promise<PaymentTransaction> {
  let wire: Uint8Array;
  let decoded: ReturnType<ReturnType<typeof getTransactionDecoder>["decode"]>;
  let compiled: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>["decode"]>;
  try {
    wire = new Uint8Array(getBase64Encoder().encode(base64Wire));
    decoded = getTransactionDecoder().decode(wire);
    compiled = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes);
  } catch {
    throw new X402Refusal(
      X402_REASONS.undecodable,
      "payload.transaction is not a base64 wire-format Solana transaction",
    );
  }
  if (compiled.version === 1) {
    throw new X402Refusal(
      X402_REASONS.undecodable,
      "payload.transaction is a version 1 message; send a v0 or legacy one",
    );
  }
  const message: CompiledMessage = compiled;
  if (message.version === 0 && (message.addressTableLookups ?? []).length > 0) {
    throw new X402Refusal(
      X402_REASONS.lookupTablesUnavailable,
      "the transaction loads accounts from address lookup tables; this facilitator's fee payer signs only transactions whose accounts are all in the message",
    );
  }
  const accounts = message.staticAccounts as readonly string[];
  if (accounts[0] !== feePayer) {
    throw new X402Refusal(
      X402_REASONS.feePayerMismatch,
      `the transaction's fee payer (account 0) is ${accounts[0]}; the requirement's extra.feePayer is ${feePayer}`,
    );
  }
  for (let at = 1; at < message.header.numSignerAccounts; at++) {
    const signer = accounts[at] as Address;
    const signature = decoded.signatures[signer];
    if (
      signature === null ||
      signature === undefined ||
      !(await verifies(signer, signature, decoded.messageBytes))
    ) {
      throw new X402Refusal(
        X402_REASONS.signatureInvalid,
        `signer ${signer} (account ${at}) has not signed this transaction's message`,
      );
    }
  }
  return {
    wire,
    messageBytes: decoded.messageBytes,
    message,
    messageHash: createHash("sha256").update(Uint8Array.from(decoded.messageBytes)).digest("hex"),
    instructions: instructionsOf(message),
    blockhash: compiled.lifetimeToken,
  };
}

async function verifies(signer: Address, signature: ReadonlyUint8Array, messageBytes: ReadonlyUint8Array) {
  try {
    return await verifySignature(
      await getPublicKeyFromAddress(signer),
      signature as Parameters<typeof verifySignature>[1],
      messageBytes,
    );
  } catch {
    return false;
  }
}
