/**
 * A transfer's record on the agent-policy program, carried by the transaction that moves the funds.
 *
 * The program's `transfer_record` instruction creates the Receipt PDA `["receipt", sender,
 * transfer_id]` and emits `ServiceTransferRecorded { transfer_id, sender, source, destination, mint,
 * confidential, memo }`. Placed in the same transaction as the token instruction, the record lands
 * if and only if the funds move, and a retry with the same transfer id fails on-chain as a whole
 * (the receipt exists: `AccountAlreadyInitialized`), so it never moves funds twice.
 *
 * The memo is encrypted to the sender and the recipient (memo.ts) before it leaves the process:
 * only the envelope is on-chain. Its associated data binds it to the record it travels in
 * (`transferMemoAssociatedData`), so an envelope copied into another record does not decrypt.
 * The program takes at most 256 memo bytes; an envelope is the plaintext padded to a bucket plus 33
 * bytes, so a plaintext memo is at most 222 bytes (MAX_MEMO_PLAINTEXT_BYTES, memo.ts); the longest
 * one still fits the confidential transfer's final transaction (measured in
 * tests/confidential/memo-on-chain.test.ts).
 */
import {
  type Address,
  address,
  getAddressEncoder,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import { SubmissionRejected } from "../chain/chain-types";
import { AGENT_POLICY_ERROR__ACCOUNT_ALREADY_INITIALIZED } from "../generated";
import { getAgentPolicyErrorFromTransactionError } from "../program/errors";
import { buildTransferRecordInstruction } from "../program/instructions";
import { findReceiptPda, TRANSFER_ID_BYTES } from "../program/pdas";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import { encryptMemo, MAX_MEMO_PLAINTEXT_BYTES } from "./memo";

/** Domain prefix of a record memo's associated data (see transferMemoAssociatedData). */
export const TRANSFER_MEMO_AAD_DOMAIN = "cpay/transfer-record/memo/v1";

/** What a caller asks to record with a transfer. */
export interface TransferRecordRequest {
  /** 16 bytes, unique per sender: the receipt's seed, so the same id is recorded (and paid) once. */
  readonly transferId: Uint8Array;
  /**
   * The plaintext memo (a string is UTF-8 encoded), at most MAX_MEMO_PLAINTEXT_BYTES bytes. It is
   * encrypted to the sender and the recipient; omitted, the record carries an empty memo.
   */
  readonly memo?: string | Uint8Array;
  /**
   * The recipient's ElGamal public key (32 bytes) the memo is encrypted to. Defaults to the key of
   * the recipient's configured confidential account; a confidential transfer refuses a key that is
   * not that account's (`account_key_mismatch`).
   */
  readonly recipientElgamalPubkey?: Uint8Array;
}

/** A request that passed the checks that need no chain access. */
export interface CheckedTransferRecord {
  readonly transferId: Uint8Array;
  readonly memo: Uint8Array | null;
  readonly recipientElgamalPubkey: Uint8Array | undefined;
}

/** The fields of a record that a memo's associated data binds. */
export interface TransferRecordFields {
  readonly transferId: ReadonlyUint8Array;
  readonly sender: string;
  readonly source: string;
  readonly destination: string;
  readonly mint: string;
  readonly confidential: boolean;
}

/**
 * Checks a request without touching the chain: `invalid_transfer_record` for a transfer id that is
 * not 16 bytes or a recipient key that is not 32, `memo_too_long` above MAX_MEMO_PLAINTEXT_BYTES.
 */
export function checkTransferRecord(request: TransferRecordRequest): CheckedTransferRecord {
  if (request.transferId.length !== TRANSFER_ID_BYTES) {
    throw new ConfidentialError(
      "invalid_transfer_record",
      `a transfer id is ${TRANSFER_ID_BYTES} bytes, got ${request.transferId.length}`,
    );
  }
  const key = request.recipientElgamalPubkey;
  if (key !== undefined && key.length !== 32) {
    throw new ConfidentialError(
      "invalid_transfer_record",
      `an ElGamal public key is 32 bytes, got ${key.length}`,
    );
  }
  const memo = typeof request.memo === "string" ? new TextEncoder().encode(request.memo) : request.memo;
  if (memo !== undefined && memo.length > MAX_MEMO_PLAINTEXT_BYTES) {
    throw new ConfidentialError(
      "memo_too_long",
      `a transfer memo is at most ${MAX_MEMO_PLAINTEXT_BYTES} bytes, got ${memo.length}`,
    );
  }
  return {
    transferId: Uint8Array.from(request.transferId),
    memo: memo === undefined ? null : Uint8Array.from(memo),
    recipientElgamalPubkey: key === undefined ? undefined : Uint8Array.from(key),
  };
}

/**
 * The associated data of a record's memo: the domain string, then transfer id (16), sender,
 * source, destination, mint (32 each) and confidential (1 byte). The reader rebuilds it from the
 * event, so a memo only decrypts inside the record it was written for.
 */
export function transferMemoAssociatedData(fields: TransferRecordFields): Uint8Array {
  const addresses = getAddressEncoder();
  const parts: ReadonlyUint8Array[] = [
    new TextEncoder().encode(TRANSFER_MEMO_AAD_DOMAIN),
    fields.transferId,
    ...[fields.sender, fields.source, fields.destination, fields.mint].map((key) =>
      addresses.encode(address(key)),
    ),
    Uint8Array.of(fields.confidential ? 1 : 0),
  ];
  const data = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    data.set(part, offset);
    offset += part.length;
  }
  return data;
}

/**
 * Builds the `transfer_record` instruction for the program deployed on `chain`, with the memo
 * encrypted. Throws `transfer_already_recorded` when the sender's receipt for this transfer id
 * already exists, `invalid_transfer_record` when a memo is given without the sender's keys or the
 * recipient's key (or the key is not a valid ElGamal key). Sends nothing.
 */
export async function buildTransferRecord(
  chain: ChainPort,
  input: {
    readonly record: CheckedTransferRecord;
    readonly sender: TransactionSigner;
    readonly payer: TransactionSigner;
    readonly source: Address;
    readonly destination: Address;
    readonly mint: Address;
    readonly confidential: boolean;
    readonly senderKeys: ConfidentialKeyset | undefined;
    readonly recipientElgamalPubkey: Uint8Array | undefined;
  },
): Promise<Instruction> {
  const programAddress = address(chain.programId);
  const { record } = input;
  const [receipt] = await findReceiptPda(
    { sender: input.sender.address, transferId: record.transferId },
    { programAddress },
  );
  if ((await chain.getAccount(receipt)) !== null) throw alreadyRecorded(input.sender.address, receipt);
  const fields: TransferRecordFields = {
    transferId: record.transferId,
    sender: input.sender.address,
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    confidential: input.confidential,
  };
  return buildTransferRecordInstruction({
    sender: input.sender,
    payer: input.payer,
    transferId: record.transferId,
    confidential: input.confidential,
    memo: record.memo === null ? new Uint8Array(0) : envelopeOf(record.memo, input, fields),
    source: input.source,
    destination: input.destination,
    mint: input.mint,
    programAddress,
  });
}

function envelopeOf(
  memo: Uint8Array,
  input: {
    readonly senderKeys: ConfidentialKeyset | undefined;
    readonly recipientElgamalPubkey: Uint8Array | undefined;
  },
  fields: TransferRecordFields,
): Uint8Array {
  if (input.senderKeys === undefined) {
    throw new ConfidentialError("invalid_transfer_record", "a memo needs the sender's confidential keys");
  }
  if (input.recipientElgamalPubkey === undefined) {
    throw new ConfidentialError(
      "invalid_transfer_record",
      "a memo needs the recipient's ElGamal public key (the recipient has no configured confidential account)",
    );
  }
  try {
    return encryptMemo({
      plaintext: memo,
      senderKeys: input.senderKeys,
      recipientPubkey: input.recipientElgamalPubkey,
      associatedData: transferMemoAssociatedData(fields),
    });
  } catch (cause) {
    throw new ConfidentialError(
      "invalid_transfer_record",
      "the recipient's ElGamal public key is not valid",
      {
        cause,
      },
    );
  }
}

function alreadyRecorded(sender: string, receipt: string, cause?: unknown): ConfidentialError {
  return new ConfidentialError(
    "transfer_already_recorded",
    `${sender} already recorded this transfer id (receipt ${receipt}); nothing moved`,
    { cause },
  );
}

/**
 * When `error` is a failed submission whose instruction `recordIndex` was refused by the program
 * because the receipt exists (someone recorded the id between the check and the landing), the same
 * error as `transfer_already_recorded`, keeping its step and context outcomes. Otherwise null.
 */
export function asAlreadyRecorded(
  chain: ChainPort,
  error: unknown,
  recordIndex: number,
): ConfidentialError | null {
  if (!(error instanceof ConfidentialError) || error.code !== "step_failed") return null;
  const json = error.cause instanceof SubmissionRejected ? error.cause.outcome?.err : error.cause;
  const programError = getAgentPolicyErrorFromTransactionError(json, {
    programAddress: address(chain.programId),
  });
  if (
    programError?.code !== AGENT_POLICY_ERROR__ACCOUNT_ALREADY_INITIALIZED ||
    programError.instructionIndex !== recordIndex
  ) {
    return null;
  }
  return new ConfidentialError(
    "transfer_already_recorded",
    `the program refused the record: this transfer id is already recorded; ${error.message}`,
    { step: error.step, contexts: error.contexts, cause: error.cause },
  );
}
