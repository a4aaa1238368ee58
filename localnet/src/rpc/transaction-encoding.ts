/**
 * A landed transaction as `getTransaction` renders it: `{slot, blockTime, transaction, meta,
 * version?}` in `json`, `jsonParsed` (lite), `base64` or `base58`.
 *
 * Versions follow agave: without `maxSupportedTransactionVersion` only legacy transactions are
 * returned (v0 -> -32015) and no `version` member appears; with it, `version` is `"legacy"` or `0`
 * and `meta.loadedAddresses` is present. `jsonParsed` parses account keys (signer/writable/source)
 * and the instructions parsed-instruction.ts knows, inner ones included; the others are partially
 * decoded (programId, accounts, base58 data), the shape a validator uses for programs it has no
 * parser for.
 */

import { type DecodedMessage, readWireTransaction } from "@cpay/sdk/chain";
import { getBase58Decoder, getBase64Decoder } from "@solana/kit";
import type { InnerInstructionGroup, TransactionRecord } from "../cluster/cluster-port";
import { unsupportedTransactionVersion } from "./json-rpc-errors";
import { parsedInstruction } from "./parsed-instruction";

const base58 = getBase58Decoder();
const base64 = getBase64Decoder();

export type TransactionEncoding = "json" | "jsonParsed" | "base64" | "base58";

type LoadedAddresses = TransactionRecord["loadedAddresses"];

function isWritableStatic(message: DecodedMessage, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  return index < message.staticAccounts.length - numReadonlyUnsignedAccounts;
}

/** Every key an instruction index can point at: static keys, then loaded writable, then readonly. */
function allKeys(message: DecodedMessage, loaded: LoadedAddresses): string[] {
  return [...message.staticAccounts, ...loaded.writable, ...loaded.readonly];
}

/** The message's address-table lookups as RPC `json` shows them. */
function lookupsJson(message: DecodedMessage): unknown[] {
  return message.lookups.map((lookup) => ({
    accountKey: lookup.table,
    writableIndexes: lookup.writableIndexes,
    readonlyIndexes: lookup.readonlyIndexes,
  }));
}

export function innerInstructionsJson(
  groups: readonly InnerInstructionGroup[],
  keys: readonly string[] | null,
): unknown[] {
  return groups.map((group) => ({
    index: group.index,
    instructions: group.instructions.map((ix) =>
      keys === null
        ? {
            programIdIndex: ix.programIdIndex,
            accounts: ix.accounts,
            data: base58.decode(ix.data),
            stackHeight: ix.stackHeight,
          }
        : parsedInstruction({
            programId: keys[ix.programIdIndex] ?? "",
            accounts: ix.accounts.map((index) => keys[index] ?? ""),
            data: ix.data,
            stackHeight: ix.stackHeight,
          }),
    ),
  }));
}

function messageJson(message: DecodedMessage, withLookups: boolean): Record<string, unknown> {
  return {
    accountKeys: message.staticAccounts,
    header: message.header,
    recentBlockhash: message.recentBlockhash,
    instructions: message.instructions.map((ix) => ({
      programIdIndex: ix.programIndex,
      accounts: ix.accountIndices,
      data: base58.decode(ix.data),
      stackHeight: null,
    })),
    addressTableLookups: withLookups ? lookupsJson(message) : undefined,
  };
}

function messageJsonParsed(
  message: DecodedMessage,
  loaded: LoadedAddresses,
  withLookups: boolean,
): Record<string, unknown> {
  const keys = allKeys(message, loaded);
  const accountKeys = keys.map((pubkey, index) => {
    const isStatic = index < message.staticAccounts.length;
    return {
      pubkey,
      writable: isStatic
        ? isWritableStatic(message, index)
        : index < message.staticAccounts.length + loaded.writable.length,
      signer: index < message.header.numRequiredSignatures,
      source: isStatic ? "transaction" : "lookupTable",
    };
  });
  return {
    accountKeys,
    recentBlockhash: message.recentBlockhash,
    instructions: message.instructions.map((ix) =>
      parsedInstruction({
        programId: keys[ix.programIndex] ?? "",
        accounts: ix.accountIndices.map((index) => keys[index] ?? ""),
        data: ix.data,
        stackHeight: null,
      }),
    ),
    addressTableLookups: withLookups ? lookupsJson(message) : undefined,
  };
}

/**
 * Renders `record` for getTransaction. `maxSupportedTransactionVersion` is undefined when the
 * caller did not send it (then v0 transactions are refused, like agave).
 */
export function encodeTransactionRecord(
  record: TransactionRecord,
  encoding: TransactionEncoding,
  maxSupportedTransactionVersion: number | undefined,
): Record<string, unknown> {
  // Read as agave's RPC reads transactions (legacy and v0); a v1 record has no RPC form there yet.
  const decoded = readWireTransaction(record.wire, { v1: false });
  const versioned = maxSupportedTransactionVersion !== undefined;
  if (decoded.version === 0 && !versioned) throw unsupportedTransactionVersion(0);
  const loaded = record.loadedAddresses;
  const showLookups = versioned && decoded.version === 0;

  let transaction: unknown;
  if (encoding === "base64") transaction = [base64.decode(record.wire), "base64"];
  else if (encoding === "base58") transaction = [base58.decode(record.wire), "base58"];
  else if (encoding === "json") {
    transaction = { signatures: decoded.signatures, message: messageJson(decoded, showLookups) };
  } else {
    transaction = {
      signatures: decoded.signatures,
      message: messageJsonParsed(decoded, loaded, showLookups),
    };
  }

  const meta = {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: innerInstructionsJson(
      record.innerInstructions,
      encoding === "jsonParsed" ? allKeys(decoded, loaded) : null,
    ),
    logMessages: record.logs,
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: versioned && encoding !== "jsonParsed" ? loaded : undefined,
    returnData: record.returnData
      ? { programId: record.returnData.programId, data: [base64.decode(record.returnData.data), "base64"] }
      : undefined,
    computeUnitsConsumed: record.computeUnitsConsumed,
  };

  return {
    slot: record.slot,
    blockTime: record.blockTime,
    transaction,
    meta,
    version: versioned ? decoded.version : undefined,
  };
}
