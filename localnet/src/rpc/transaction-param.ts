/**
 * Decoding of an encoded transaction (or message) parameter, with agave's limits and messages.
 *
 * The order of checks follows agave's `decode_and_deserialize`: encoded length first (so a huge
 * string is never decoded), then the alphabet, then the raw size against PACKET_DATA_SIZE, then the
 * wire format. Each failure is -32602 with agave's text, e.g. `base64 encoded
 * solana_transaction::versioned::VersionedTransaction too large: 1708 bytes (max: encoded/raw
 * 1644/1232)`.
 */

import {
  type DecodedMessage,
  type DecodedTransaction,
  PACKET_DATA_SIZE,
  readWireMessage,
  readWireTransaction,
  WireFormatError,
} from "@cpay/sdk/chain";
import { Base58Error, decodeBase58 } from "./base58";
import { Base64Error, decodeBase64 } from "./base64";
import { invalidParams } from "./json-rpc-errors";

export type BinaryEncoding = "base58" | "base64";

/** The encoded lengths of a PACKET_DATA_SIZE transaction, as agave's RPC limits them. */
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;

const TRANSACTION_TYPE = "solana_transaction::versioned::VersionedTransaction";
const MESSAGE_TYPE = "solana_message::versioned::VersionedMessage";

function decodeBinary(encoded: string, encoding: BinaryEncoding, typeName: string): Uint8Array {
  const max = encoding === "base58" ? MAX_BASE58_SIZE : MAX_BASE64_SIZE;
  const encodedLength = Buffer.byteLength(encoded);
  if (encodedLength > max) {
    throw invalidParams(
      `${encoding} encoded ${typeName} too large: ${encodedLength} bytes (max: encoded/raw ${max}/${PACKET_DATA_SIZE})`,
    );
  }
  let raw: Uint8Array;
  try {
    raw = encoding === "base58" ? decodeBase58(encoded) : decodeBase64(encoded);
  } catch (error) {
    if (error instanceof Base58Error || error instanceof Base64Error) {
      throw invalidParams(`invalid ${encoding} encoding: ${error.message}`);
    }
    throw error;
  }
  if (raw.length > PACKET_DATA_SIZE) {
    throw invalidParams(
      `decoded ${typeName} too large: ${raw.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`,
    );
  }
  return raw;
}

export interface TransactionParam {
  /** The exact bytes to hand to the cluster. */
  readonly wire: Uint8Array;
  readonly transaction: DecodedTransaction;
}

/**
 * Decodes and parses a `sendTransaction`/`simulateTransaction` payload, as agave's RPC reads it:
 * legacy and v0 only, trailing bytes tolerated (the cluster refuses them after).
 */
export function decodeTransactionParam(encoded: string, encoding: BinaryEncoding): TransactionParam {
  const wire = decodeBinary(encoded, encoding, TRANSACTION_TYPE);
  try {
    const transaction = readWireTransaction(wire, { v1: false });
    if (transaction.signatures.length === 0) {
      throw new WireFormatError("a transaction needs at least one signature");
    }
    return { wire, transaction };
  } catch (error) {
    if (error instanceof WireFormatError) {
      throw invalidParams(`failed to deserialize ${TRANSACTION_TYPE}: ${error.message}`);
    }
    throw error;
  }
}

/** Decodes and parses a `getFeeForMessage` payload (a base64 message without signatures). */
export function decodeMessageParam(encoded: string): DecodedMessage {
  const bytes = decodeBinary(encoded, "base64", MESSAGE_TYPE);
  try {
    return readWireMessage(bytes, { v1: false });
  } catch (error) {
    if (error instanceof WireFormatError)
      throw invalidParams(`failed to deserialize ${MESSAGE_TYPE}: ${error.message}`);
    throw error;
  }
}
