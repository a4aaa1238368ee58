/**
 * Building and submitting the transactions of confidential operations over the chain port.
 *
 * Every transaction is signed before anything is sent, so its signature is known up front: a
 * submission that throws can still be checked ("did it land after all?") before the operation
 * decides nothing moved. Submissions run with preflight so a failing transaction does not land
 * (and costs no fee); a landed one is confirmed by its signature status.
 */
import type { Instruction, TransactionSigner } from "@solana/kit";
import { awaitLanding, TransactionExpired } from "../chain/await-landing";
import type { ChainPort } from "../chain/chain-port";
import { ChainUnavailable, SubmissionRejected, type TransactionErrorJson } from "../chain/chain-types";
import {
  PACKET_DATA_SIZE,
  partiallySignTransactionToWire,
  signTransactionToWire,
} from "../chain/sign-transaction";
import { transactionWireSize } from "../chain/transaction-wire-size";
import { ConfidentialError, type ConfidentialStep } from "./errors";

/** A transaction with the step it performs, signed by everyone here (the fee payer's slot may be empty). */
export interface PreparedTransaction {
  readonly step: ConfidentialStep;
  readonly wire: Uint8Array;
  /** The blockhash it was signed with: once invalid, the transaction can no longer land. */
  readonly blockhash: string;
  /** That blockhash's last valid block height (no block above it can include the transaction). */
  readonly lastValidBlockHeight: bigint;
}

/** A signed transaction ready to send, with the step it performs. */
export interface SignedTransaction extends PreparedTransaction {
  readonly signature: string;
}

/** Signs `instructions` (v0 message) with the fee payer and every signer the instructions carry. */
export async function signTransaction(input: StepTransactionInput): Promise<SignedTransaction> {
  const { signature, wire } = await signTransactionToWire(wireInput(input));
  assertFitsPacket(input.step, wire);
  return {
    step: input.step,
    signature,
    wire,
    blockhash: input.blockhash.blockhash,
    lastValidBlockHeight: input.blockhash.lastValidBlockHeight,
  };
}

/**
 * Signs `instructions` like `signTransaction` but leaves the slot of a fee payer that cannot sign
 * here (a kit `NoopSigner`: a relay co-signs and submits it) empty. Same size as the fully signed
 * transaction: the empty slot takes its 64 bytes. `RangeError` over the packet limit.
 */
export async function partiallySignTransaction(input: StepTransactionInput): Promise<PreparedTransaction> {
  const { wire } = await partiallySignTransactionToWire(wireInput(input));
  assertFitsPacket(input.step, wire);
  return {
    step: input.step,
    wire,
    blockhash: input.blockhash.blockhash,
    lastValidBlockHeight: input.blockhash.lastValidBlockHeight,
  };
}

/** Whether the transaction `signTransaction` would make from `input` fits a packet (nothing is signed). */
export function fitsPacket(input: StepTransactionInput): boolean {
  return transactionWireSize(wireInput(input)) <= PACKET_DATA_SIZE;
}

/** What both signing functions take: one step's instructions, its fee payer and blockhash. */
interface StepTransactionInput {
  readonly step: ConfidentialStep;
  readonly feePayer: TransactionSigner;
  readonly instructions: readonly Instruction[];
  readonly blockhash: { readonly blockhash: string; readonly lastValidBlockHeight: bigint };
}

function wireInput(input: StepTransactionInput) {
  return {
    feePayer: input.feePayer,
    instructions: input.instructions,
    blockhash: input.blockhash.blockhash,
    lastValidBlockHeight: input.blockhash.lastValidBlockHeight,
  };
}

/** `RangeError` for a transaction over the packet limit, naming its step. */
function assertFitsPacket(step: ConfidentialStep, wire: Uint8Array): void {
  if (wire.length > PACKET_DATA_SIZE) {
    throw new RangeError(`${step} transaction is ${wire.length} bytes (limit ${PACKET_DATA_SIZE})`);
  }
}

/** Whether `signature` has landed successfully, failed, or is not known to the cluster. */
export async function landedStatus(
  chain: ChainPort,
  signature: string,
): Promise<"succeeded" | "failed" | "unknown"> {
  const status = await chain.getSignatureStatus(signature);
  if (status === null) return "unknown";
  return status.err === null ? "succeeded" : "failed";
}

/**
 * Sends one transaction and waits for its signature status (sending does not imply landing);
 * throws ConfidentialError(`step_failed`, step) when it is rejected, fails, or does not land
 * before its blockhash expires (then its `cause` is a TransactionExpired: `isNeverLanded`), and ChainUnavailable as it is when the cluster cannot be reached
 * (then nobody knows whether it lands).
 */
export async function submit(
  chain: ChainPort,
  transaction: SignedTransaction,
  options: { readonly pollMs?: number } = {},
): Promise<string> {
  try {
    await chain.sendTransaction(transaction.wire, { preflight: true });
  } catch (error) {
    // Unreachable is not refused: the node may have the transaction and land it. The caller must
    // treat the outcome as unknown and settle it from the chain later, never as "nothing moved".
    if (error instanceof ChainUnavailable) throw error;
    // A duplicate means an earlier attempt with these exact bytes got there first.
    const alreadyLanded = error instanceof SubmissionRejected && error.kind === "already_processed";
    if (!alreadyLanded) throw stepFailed(transaction.step, describeRejection(error), error);
  }
  const status = await awaitLanding(chain, transaction.signature, transaction.blockhash, {
    ...options,
    wire: transaction.wire,
  });
  if (status === null) {
    throw stepFailed(
      transaction.step,
      "transaction did not land before its blockhash expired",
      new TransactionExpired(transaction.signature, transaction.lastValidBlockHeight),
    );
  }
  if (status.err !== null) {
    throw stepFailed(transaction.step, `transaction failed: ${JSON.stringify(status.err)}`, status.err);
  }
  return transaction.signature;
}

function describeRejection(error: unknown): string {
  if (error instanceof SubmissionRejected) {
    const err: TransactionErrorJson | undefined = error.outcome?.err ?? undefined;
    return `rejected (${error.kind})${err === undefined ? "" : `: ${JSON.stringify(err)}`}`;
  }
  return `could not be sent: ${error instanceof Error ? error.message : String(error)}`;
}

function stepFailed(step: ConfidentialStep, detail: string, cause: unknown): ConfidentialError {
  return new ConfidentialError("step_failed", `${step} ${detail}`, { step, cause });
}
