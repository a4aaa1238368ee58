/**
 * Helius "raw" webhook entries -> ChainTransaction. A raw delivery is a JSON array whose entries have
 * the `getTransaction` (`json` encoding) shape plus `indexWithinBlock`:
 * `{ slot, blockTime, indexWithinBlock, meta: { err, fee, logMessages, ... }, transaction: {
 * signatures: [...], message: {...} } }`. Only the fields a ChainTransaction carries are read.
 *
 * The body comes from the network (a trust boundary, STYLE 7), so every field read is checked and a
 * malformed one is a HeliusPayloadError naming it (`[2].meta.logMessages is not an array of strings`):
 * the receiver refuses the whole delivery rather than index half of it.
 */
import type { TransactionErrorJson } from "@cpay/sdk/chain";
import { isSignature } from "@solana/kit";
import type { ChainTransaction } from "../chain/indexer-chain";

/** A webhook body or entry that is not what Helius sends; `field` is the path of the bad value. */
export class HeliusPayloadError extends Error {
  override readonly name = "HeliusPayloadError";

  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field} ${problem}`);
  }
}

type JsonObject = Record<string, unknown>;

/**
 * Parses one raw entry. `path` prefixes the field names in errors (the receiver passes `[i]`); an
 * entry parsed alone names its fields from the entry (`meta.err`). Throws HeliusPayloadError.
 */
export function chainTransactionOfHeliusRaw(entry: unknown, path = ""): ChainTransaction {
  const at = (field: string) => (path === "" ? field : `${path}.${field}`);
  const raw = objectAt(entry, path === "" ? "entry" : path);
  const transaction = objectAt(raw.transaction, at("transaction"));
  const meta = objectAt(raw.meta, at("meta"));
  return {
    signature: firstSignature(transaction.signatures, at("transaction.signatures")),
    slot: unsignedInteger(raw.slot, at("slot")),
    blockTime: unsignedInteger(raw.blockTime, at("blockTime")),
    err: transactionError(meta.err, at("meta.err")),
    logs: logMessages(meta.logMessages, at("meta.logMessages")),
  };
}

/** Parses a whole delivery (a JSON array of raw entries); any bad entry fails it all. */
export function chainTransactionsOfHeliusPayload(body: unknown): ChainTransaction[] {
  if (!Array.isArray(body)) throw new HeliusPayloadError("body", "is not a JSON array");
  return body.map((entry, index) => chainTransactionOfHeliusRaw(entry, `[${index}]`));
}

function objectAt(value: unknown, field: string): JsonObject {
  if (value === undefined) throw new HeliusPayloadError(field, "is missing");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HeliusPayloadError(field, "is not an object");
  }
  return value as JsonObject;
}

/** JSON numbers: slots and unix seconds are far below 2^53, so a safe integer loses nothing. */
function unsignedInteger(value: unknown, field: string): bigint {
  if (value === undefined) throw new HeliusPayloadError(field, "is missing");
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new HeliusPayloadError(field, "is not a non-negative integer");
  }
  return BigInt(value);
}

/** The transaction id is its first signature; every one must still be a base58 64-byte signature. */
function firstSignature(value: unknown, field: string): string {
  if (value === undefined) throw new HeliusPayloadError(field, "is missing");
  if (!Array.isArray(value) || value.length === 0) {
    throw new HeliusPayloadError(field, "is not a non-empty array of signatures");
  }
  value.forEach((signature, index) => {
    if (typeof signature !== "string" || !isSignature(signature)) {
      throw new HeliusPayloadError(`${field}[${index}]`, "is not a base58 transaction signature");
    }
  });
  return value[0] as string;
}

/** Solana's TransactionError JSON: null, a unit variant's name, or a tagged object. */
function transactionError(value: unknown, field: string): TransactionErrorJson | null {
  if (value === undefined) throw new HeliusPayloadError(field, "is missing");
  if (value === null || typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value)) return value as JsonObject;
  throw new HeliusPayloadError(field, "is not null, a string or an object");
}

function logMessages(value: unknown, field: string): string[] {
  if (value === undefined) throw new HeliusPayloadError(field, "is missing");
  if (!Array.isArray(value) || !value.every((line) => typeof line === "string")) {
    throw new HeliusPayloadError(field, "is not an array of strings");
  }
  return value as string[];
}
