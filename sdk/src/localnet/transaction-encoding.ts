/**
 * A landed transaction as `getTransaction` renders it: `{slot, blockTime, transaction, meta,
 * version?}` in `json`, `jsonParsed` (lite), `base64` or `base58`.
 *
 * Versions follow agave: without `maxSupportedTransactionVersion` only legacy transactions are
 * returned (v0 -> -32015) and no `version` member appears; with it, `version` is `"legacy"` or `0`
 * and `meta.loadedAddresses` is present. `jsonParsed` is "lite": account keys are parsed
 * (signer/writable/source) but instructions, inner ones included, are left partially decoded
 * (programId, accounts, base58 data): the shape a validator uses for programs it has no parser for.
 */
import type { InnerInstructionGroup, TransactionRecord } from "../cluster/cluster-port";
import { encodeBase58 } from "./base58";
import { encodeBase64 } from "./base64";
import { unsupportedTransactionVersion } from "./json-rpc-errors";
import { readWireTransaction, type WireMessage } from "./wire-transaction";

export type TransactionEncoding = "json" | "jsonParsed" | "base64" | "base58";

type LoadedAddresses = TransactionRecord["loadedAddresses"];

function isWritableStatic(message: WireMessage, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  return index < message.accountKeys.length - numReadonlyUnsignedAccounts;
}

/** Every key an instruction index can point at: static keys, then loaded writable, then readonly. */
function allKeys(message: WireMessage, loaded: LoadedAddresses): string[] {
  return [...message.accountKeys, ...loaded.writable, ...loaded.readonly];
}

function innerInstructionsJson(
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
            data: encodeBase58(ix.data),
            stackHeight: ix.stackHeight,
          }
        : {
            programId: keys[ix.programIdIndex],
            accounts: ix.accounts.map((index) => keys[index]),
            data: encodeBase58(ix.data),
            stackHeight: ix.stackHeight,
          },
    ),
  }));
}

function messageJson(message: WireMessage, withLookups: boolean): Record<string, unknown> {
  return {
    accountKeys: message.accountKeys,
    header: message.header,
    recentBlockhash: message.recentBlockhash,
    instructions: message.instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accounts,
      data: encodeBase58(ix.data),
      stackHeight: null,
    })),
    addressTableLookups: withLookups ? message.addressTableLookups : undefined,
  };
}

function messageJsonParsed(
  message: WireMessage,
  loaded: LoadedAddresses,
  withLookups: boolean,
): Record<string, unknown> {
  const keys = allKeys(message, loaded);
  const accountKeys = keys.map((pubkey, index) => {
    const isStatic = index < message.accountKeys.length;
    return {
      pubkey,
      writable: isStatic
        ? isWritableStatic(message, index)
        : index < message.accountKeys.length + loaded.writable.length,
      signer: index < message.header.numRequiredSignatures,
      source: isStatic ? "transaction" : "lookupTable",
    };
  });
  return {
    accountKeys,
    recentBlockhash: message.recentBlockhash,
    instructions: message.instructions.map((ix) => ({
      programId: keys[ix.programIdIndex],
      accounts: ix.accounts.map((index) => keys[index]),
      data: encodeBase58(ix.data),
      stackHeight: null,
    })),
    addressTableLookups: withLookups ? message.addressTableLookups : undefined,
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
  const parsed = readWireTransaction(record.wire);
  const { message } = parsed;
  const versioned = maxSupportedTransactionVersion !== undefined;
  if (message.version === 0 && !versioned) throw unsupportedTransactionVersion(0);
  const loaded = record.loadedAddresses;
  const showLookups = versioned && message.version === 0;

  let transaction: unknown;
  if (encoding === "base64") transaction = [encodeBase64(record.wire), "base64"];
  else if (encoding === "base58") transaction = [encodeBase58(record.wire), "base58"];
  else if (encoding === "json") {
    transaction = { signatures: parsed.signatures, message: messageJson(message, showLookups) };
  } else {
    transaction = { signatures: parsed.signatures, message: messageJsonParsed(message, loaded, showLookups) };
  }

  const meta = {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: innerInstructionsJson(
      record.innerInstructions,
      encoding === "jsonParsed" ? allKeys(message, loaded) : null,
    ),
    logMessages: record.logs,
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: versioned && encoding !== "jsonParsed" ? loaded : undefined,
    returnData: record.returnData
      ? { programId: record.returnData.programId, data: [encodeBase64(record.returnData.data), "base64"] }
      : undefined,
    computeUnitsConsumed: record.computeUnitsConsumed,
  };

  return {
    slot: record.slot,
    blockTime: record.blockTime,
    transaction,
    meta,
    version: versioned ? message.version : undefined,
  };
}
