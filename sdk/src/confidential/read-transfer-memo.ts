/**
 * Reading a transfer's record back: the `ServiceTransferRecorded` event from a transaction's logs
 * (program/events.ts attributes `Program data:` lines to our program only), and its memo decrypted
 * with one party's keys. The memo's associated data is rebuilt from the event
 * (transferMemoAssociatedData), so an envelope only decrypts inside the record it was written for.
 *
 * Events of a failed transaction never happened: a TransactionRecord with `err`, or logs with a
 * `Program ... failed:` line, yield `transfer_record_not_found`.
 *
 * A consumer trusts a record by its `sender` (the program does not tie source and destination to
 * the sender): check `sender` is who you expect before acting on it.
 */
import { type Address, address } from "@solana/kit";
import type { ChainPort } from "../chain/chain-port";
import type { TransactionErrorJson } from "../chain/chain-types";
import { parseAgentPolicyEvents } from "../program/events";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import { decryptMemo, type MemoParties } from "./memo";
import { type ConfidentialAccountState, readConfidentialState } from "./token-account";
import { transferMemoAssociatedData } from "./transfer-record";

/** A transaction to read: its log messages, or anything carrying logs and its error (TransactionRecord). */
export type TransactionLogs =
  | readonly string[]
  | { readonly logs: readonly string[]; readonly err: TransactionErrorJson | null };

/** A ServiceTransferRecorded event as read from the logs. */
export interface TransferRecordEvent {
  readonly transferId: Uint8Array;
  readonly sender: Address;
  readonly source: Address;
  readonly destination: Address;
  readonly mint: Address;
  readonly confidential: boolean;
  /** The memo as recorded: the encrypted envelope, or empty when the record has no memo. */
  readonly envelope: Uint8Array;
  /** The top-level instruction that emitted it. */
  readonly instructionIndex: number;
}

/** A record with its memo decrypted. */
export interface TransferMemo extends TransferRecordEvent {
  /** The plaintext memo, or null when the record carries none. */
  readonly memo: Uint8Array | null;
  /** The memo as UTF-8 text, or null when there is none or it is not valid UTF-8. */
  readonly memoText: string | null;
}

const FAILED = /^Program [1-9A-HJ-NP-Za-km-z]{32,44} failed: /;

/**
 * Every ServiceTransferRecorded event of a successful transaction, in emission order (empty for a
 * failed one). `programAddress` is the agent-policy program id (the deployed one by default).
 */
export function findTransferRecords(
  transaction: TransactionLogs,
  options: { readonly programAddress?: string } = {},
): TransferRecordEvent[] {
  const logs = isLogList(transaction) ? transaction : transaction.logs;
  const failed = !isLogList(transaction) && transaction.err !== null;
  if (failed || logs.some((line) => FAILED.test(line))) return [];
  const programAddress = options.programAddress === undefined ? undefined : address(options.programAddress);
  const { events } = parseAgentPolicyEvents(logs, { programAddress });
  return events.flatMap((event) =>
    event.name === "ServiceTransferRecorded"
      ? [
          {
            transferId: Uint8Array.from(event.data.transferId),
            sender: event.data.sender,
            source: event.data.source,
            destination: event.data.destination,
            mint: event.data.mint,
            confidential: event.data.confidential,
            envelope: Uint8Array.from(event.data.memo),
            instructionIndex: event.instructionIndex,
          },
        ]
      : [],
  );
}

/** The ElGamal public keys a record's memo was encrypted between, read from its token accounts. */
export async function transferMemoPartiesOnChain(
  chain: ChainPort,
  record: Pick<TransferRecordEvent, "source" | "destination">,
): Promise<MemoParties> {
  const [source, destination] = await Promise.all([
    readConfidentialState(chain, record.source),
    readConfidentialState(chain, record.destination),
  ]);
  const keyOf = (tokenAccount: string, state: ConfidentialAccountState | null) => {
    if (state === null) {
      throw new ConfidentialError(
        "account_not_confidential_ready",
        `${tokenAccount} has no confidential account: pass the memo's parties explicitly`,
      );
    }
    return state.elgamalPubkey;
  };
  return {
    senderPubkey: keyOf(record.source, source),
    recipientPubkey: keyOf(record.destination, destination),
  };
}

interface ReadTransferMemoInput {
  readonly transaction: TransactionLogs;
  readonly keys: ConfidentialKeyset;
  readonly transferId?: Uint8Array;
  readonly programAddress?: string;
}

/**
 * Finds the transaction's transfer record (the one with `transferId` when given, else its only
 * one) and decrypts its memo with `keys`, the sender's or the recipient's. The parties' ElGamal
 * keys are given (then it answers at once), or read from the record's source and destination
 * accounts on `chain`.
 *
 * Throws `transfer_record_not_found` (no such record, several without `transferId`, or a failed
 * transaction) and `memo_undecryptable` (keys of neither party, or an altered memo).
 */
export function readTransferMemo(
  input: ReadTransferMemoInput & { readonly parties: MemoParties },
): TransferMemo;
export function readTransferMemo(
  input: ReadTransferMemoInput & { readonly chain: ChainPort },
): Promise<TransferMemo>;
export function readTransferMemo(
  input: ReadTransferMemoInput & ({ readonly parties: MemoParties } | { readonly chain: ChainPort }),
): TransferMemo | Promise<TransferMemo> {
  if ("parties" in input) return memoOf(input, recordOf(input, input.programAddress), input.parties);
  return readTransferMemoOnChain(input);
}

async function readTransferMemoOnChain(
  input: ReadTransferMemoInput & { readonly chain: ChainPort },
): Promise<TransferMemo> {
  const record = recordOf(input, input.programAddress ?? input.chain.programId);
  if (record.envelope.length === 0) return { ...record, memo: null, memoText: null };
  return memoOf(input, record, await transferMemoPartiesOnChain(input.chain, record));
}

function memoOf(
  input: ReadTransferMemoInput,
  record: TransferRecordEvent,
  parties: MemoParties,
): TransferMemo {
  if (record.envelope.length === 0) return { ...record, memo: null, memoText: null };
  const memo = decryptMemo({
    envelope: record.envelope,
    keys: input.keys,
    parties,
    associatedData: transferMemoAssociatedData(record),
  });
  return { ...record, memo, memoText: utf8(memo) };
}

function recordOf(input: ReadTransferMemoInput, programAddress: string | undefined): TransferRecordEvent {
  const records = findTransferRecords(input.transaction, { programAddress }).filter(
    (record) => input.transferId === undefined || equal(record.transferId, input.transferId),
  );
  const [record] = records;
  if (record === undefined || records.length > 1) {
    throw new ConfidentialError(
      "transfer_record_not_found",
      record === undefined
        ? "the transaction carries no such transfer record (or it failed)"
        : `the transaction carries ${records.length} transfer records: pass the transfer id`,
    );
  }
  return record;
}

function isLogList(transaction: TransactionLogs): transaction is readonly string[] {
  return Array.isArray(transaction);
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
