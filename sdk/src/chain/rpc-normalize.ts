/**
 * RPC answers -> the port's plain data (chain-types.ts), checked at this boundary: u64s as bigint
 * (kit hands some integers over as bigint and some as number), transaction errors as plain JSON,
 * bytes decoded from base64, account keys read from the transaction's own bytes. A field that is
 * missing or of the wrong type is an `UnexpectedRpcAnswer` naming it, never a silent default.
 */
import {
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from "@solana/kit";
import type {
  AccountRecord,
  Commitment,
  InnerInstructionGroup,
  SignatureInfo,
  SignatureStatus,
  TransactionErrorJson,
  TransactionRecord,
} from "./chain-types";

/** An answer that does not have the shape Solana RPC documents; `field` is the bad value's path. */
export class UnexpectedRpcAnswer extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field} ${problem}`);
    this.name = "UnexpectedRpcAnswer";
  }
}

type Json = Record<string, unknown>;

/**
 * kit parses every integer of an answer as a bigint; the port's JSON values (transaction errors,
 * error data) are JSON again, numbers as numbers, so they compare equal to and stringify like the
 * in-process chain's (`{ Custom: 6001 }`, never `{ Custom: 6001n }`).
 */
export function toPlainJson(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlainJson(item)]));
  }
  return value;
}

/** A transaction error of an answer as Solana's error JSON (null when there was none). */
export function toTransactionErrorJson(err: unknown): TransactionErrorJson | null {
  if (err === null || err === undefined) return null;
  return toPlainJson(err) as TransactionErrorJson;
}

const base64 = getBase64Encoder();
const base58 = getBase58Encoder();

export function objectAt(value: unknown, field: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UnexpectedRpcAnswer(field, "is not an object");
  }
  return value as Json;
}

export function u64(value: unknown, field: string): bigint {
  if (typeof value === "bigint" && value >= 0n) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new UnexpectedRpcAnswer(field, "is not an unsigned integer");
}

function smallInteger(value: unknown, field: string): number {
  const n = u64(value, field);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new UnexpectedRpcAnswer(field, "is too large");
  return Number(n);
}

export function text(value: unknown, field: string): string {
  if (typeof value !== "string") throw new UnexpectedRpcAnswer(field, "is not a string");
  return value;
}

function texts(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new UnexpectedRpcAnswer(field, "is not an array");
  return value.map((item, index) => text(item, `${field}[${index}]`));
}

function commitmentAt(value: unknown, field: string): Commitment {
  if (value === "processed" || value === "confirmed" || value === "finalized") return value;
  throw new UnexpectedRpcAnswer(field, "is not a commitment level");
}

/** `[base64, "base64"]` -> bytes. */
export function bytesOfBase64Pair(value: unknown, field: string): Uint8Array {
  if (!Array.isArray(value) || value[1] !== "base64") {
    throw new UnexpectedRpcAnswer(field, 'is not a ["…", "base64"] pair');
  }
  return Uint8Array.from(base64.encode(text(value[0], `${field}[0]`)));
}

/** getAccountInfo / getMultipleAccounts / getProgramAccounts (base64) value -> AccountRecord. */
export function accountRecordOf(address: string, value: unknown, field: string): AccountRecord {
  const account = objectAt(value, field);
  return {
    address,
    lamports: u64(account.lamports, `${field}.lamports`),
    owner: text(account.owner, `${field}.owner`),
    executable: account.executable === true,
    rentEpoch: u64(account.rentEpoch, `${field}.rentEpoch`),
    data: bytesOfBase64Pair(account.data, `${field}.data`),
  };
}

export function signatureStatusOf(value: unknown, field: string): SignatureStatus | null {
  if (value === null) return null;
  const status = objectAt(value, field);
  const confirmations =
    status.confirmations === null ? null : smallInteger(status.confirmations, `${field}.confirmations`);
  return {
    slot: u64(status.slot, `${field}.slot`),
    confirmations,
    // Nodes before 1.5 omit the level; `confirmations: null` has always meant rooted.
    confirmationStatus:
      status.confirmationStatus === undefined || status.confirmationStatus === null
        ? confirmations === null
          ? "finalized"
          : "processed"
        : commitmentAt(status.confirmationStatus, `${field}.confirmationStatus`),
    err: toTransactionErrorJson(status.err),
  };
}

export function signatureInfoOf(value: unknown, field: string): SignatureInfo {
  const info = objectAt(value, field);
  return {
    signature: text(info.signature, `${field}.signature`),
    slot: u64(info.slot, `${field}.slot`),
    err: toTransactionErrorJson(info.err),
    // Solana may not know a block's time (null); 0 keeps the field total, as the port types it.
    blockTime:
      info.blockTime === null || info.blockTime === undefined
        ? 0n
        : u64(info.blockTime, `${field}.blockTime`),
    confirmationStatus: commitmentAt(info.confirmationStatus, `${field}.confirmationStatus`),
  };
}

/** Return data as RPC carries it (`{programId, data: [base64, "base64"]}`), or null. */
export function returnDataOf(value: unknown, field: string): TransactionRecord["returnData"] {
  if (value === null || value === undefined) return null;
  const returned = objectAt(value, field);
  return {
    programId: text(returned.programId, `${field}.programId`),
    data: bytesOfBase64Pair(returned.data, `${field}.data`),
  };
}

function innerInstructionsOf(value: unknown, field: string): InnerInstructionGroup[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new UnexpectedRpcAnswer(field, "is not an array");
  return value.map((group, g) => {
    const at = `${field}[${g}]`;
    const { index, instructions } = objectAt(group, at);
    if (!Array.isArray(instructions)) throw new UnexpectedRpcAnswer(`${at}.instructions`, "is not an array");
    return {
      index: smallInteger(index, `${at}.index`),
      instructions: instructions.map((item, i) => {
        const ix = objectAt(item, `${at}.instructions[${i}]`);
        const accounts = ix.accounts;
        if (!Array.isArray(accounts))
          throw new UnexpectedRpcAnswer(`${at}.instructions[${i}].accounts`, "is not an array");
        return {
          programIdIndex: smallInteger(ix.programIdIndex, `${at}.instructions[${i}].programIdIndex`),
          accounts: accounts.map((account, a) =>
            smallInteger(account, `${at}.instructions[${i}].accounts[${a}]`),
          ),
          data: Uint8Array.from(base58.encode(text(ix.data, `${at}.instructions[${i}].data`))),
          stackHeight: smallInteger(ix.stackHeight, `${at}.instructions[${i}].stackHeight`),
        };
      }),
    };
  });
}

/** The static account keys of a wire transaction, in message order. */
// Made once: a decoder is built from many codecs, each getTransaction would rebuild them.
const TRANSACTION_DECODER = getTransactionDecoder();
const MESSAGE_DECODER = getCompiledTransactionMessageDecoder();

function staticAccountsOf(wire: Uint8Array): string[] {
  const { messageBytes } = TRANSACTION_DECODER.decode(wire);
  return [...MESSAGE_DECODER.decode(messageBytes).staticAccounts];
}

function balances(value: unknown, field: string): bigint[] {
  if (!Array.isArray(value)) throw new UnexpectedRpcAnswer(field, "is not an array");
  return value.map((item, index) => u64(item, `${field}[${index}]`));
}

/** getTransaction (encoding base64, maxSupportedTransactionVersion 0) -> TransactionRecord. */
export function transactionRecordOf(signature: string, value: unknown): TransactionRecord {
  const found = objectAt(value, "getTransaction");
  const meta = objectAt(found.meta, "getTransaction.meta");
  const wire = bytesOfBase64Pair(found.transaction, "getTransaction.transaction");
  const loaded =
    meta.loadedAddresses === undefined || meta.loadedAddresses === null
      ? { writable: [], readonly: [] }
      : objectAt(meta.loadedAddresses, "getTransaction.meta.loadedAddresses");
  return {
    signature,
    slot: u64(found.slot, "getTransaction.slot"),
    blockTime: found.blockTime === null ? 0n : u64(found.blockTime, "getTransaction.blockTime"),
    wire,
    accountKeys: staticAccountsOf(wire),
    loadedAddresses: {
      writable: texts(loaded.writable, "getTransaction.meta.loadedAddresses.writable"),
      readonly: texts(loaded.readonly, "getTransaction.meta.loadedAddresses.readonly"),
    },
    preBalances: balances(meta.preBalances, "getTransaction.meta.preBalances"),
    postBalances: balances(meta.postBalances, "getTransaction.meta.postBalances"),
    innerInstructions: innerInstructionsOf(meta.innerInstructions, "getTransaction.meta.innerInstructions"),
    err: toTransactionErrorJson(meta.err),
    logs:
      meta.logMessages === null || meta.logMessages === undefined
        ? []
        : texts(meta.logMessages, "getTransaction.meta.logMessages"),
    computeUnitsConsumed:
      meta.computeUnitsConsumed === undefined
        ? 0n
        : u64(meta.computeUnitsConsumed, "getTransaction.meta.computeUnitsConsumed"),
    fee: u64(meta.fee, "getTransaction.meta.fee"),
    returnData: returnDataOf(meta.returnData, "getTransaction.meta.returnData"),
  };
}

/** A simulation (simulateTransaction's value, or a -32002's `data`) -> outcome fields. */
export function simulationOf(value: unknown, field: string) {
  const simulation = objectAt(value, field);
  return {
    err: toTransactionErrorJson(simulation.err),
    logs:
      simulation.logs === null || simulation.logs === undefined
        ? []
        : texts(simulation.logs, `${field}.logs`),
    computeUnitsConsumed:
      simulation.unitsConsumed === undefined || simulation.unitsConsumed === null
        ? 0n
        : u64(simulation.unitsConsumed, `${field}.unitsConsumed`),
    fee: simulation.fee === undefined || simulation.fee === null ? 0n : u64(simulation.fee, `${field}.fee`),
    returnData: returnDataOf(simulation.returnData, `${field}.returnData`),
    replacementBlockhash:
      simulation.replacementBlockhash === null || simulation.replacementBlockhash === undefined
        ? null
        : text(
            objectAt(simulation.replacementBlockhash, `${field}.replacementBlockhash`).blockhash,
            `${field}.replacementBlockhash.blockhash`,
          ),
  };
}
