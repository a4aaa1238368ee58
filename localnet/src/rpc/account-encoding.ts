/**
 * Accounts as Solana RPC renders them (`UiAccount`): lamports, owner, data in the requested
 * encoding, executable, rentEpoch, space.
 *
 * Encodings: `base64`, `base58` (data up to 128 bytes, as agave), the legacy default `binary` (a bare
 * base58 string, what a validator returns when no encoding is given) and `jsonParsed`, which parses
 * plain SPL Token / Token-2022 accounts and mints (see token-layout) and otherwise falls back to
 * base64 exactly like a validator does for programs it has no parser for. `base64+zstd` is refused
 * with a clear error rather than answered in another encoding a client would misread.
 */
import { getBase58Decoder, getBase64Decoder } from "@solana/kit";
import type { AccountRecord, ClusterPort } from "../cluster/cluster-port";
import { invalidParams, RpcError, RpcErrorCode } from "./json-rpc-errors";
import { type Config, optionalConfig, readEnum, requireUsize } from "./params";
import { parseTokenAccountJson } from "./token-layout";

const base58 = getBase58Decoder();
const base64 = getBase64Decoder();

export type AccountEncoding = "binary" | "base58" | "base64" | "jsonParsed";

export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

/** Agave's MAX_BASE58_BYTES: base58 is quadratic, so it is only offered for small data. */
const MAX_BASE58_BYTES = 128;

/** `config.encoding` for account data; `fallback` is `binary` for getAccountInfo as on a validator. */
export function readAccountEncoding(config: Config, fallback: AccountEncoding): AccountEncoding {
  if (config.encoding === "base64+zstd") {
    throw invalidParams(
      'Invalid params: encoding "base64+zstd" is not supported by this localnet; use "base64" (identical data, uncompressed)',
    );
  }
  return readEnum(config, "encoding", ["binary", "base58", "base64", "jsonParsed"], fallback);
}

/** `config.dataSlice`: `{offset, length}` to return part of the data (not with jsonParsed). */
export function readDataSlice(config: Config, encoding: AccountEncoding): DataSlice | null {
  if (config.dataSlice === undefined || config.dataSlice === null) return null;
  const slice = optionalConfig(config.dataSlice, "dataSlice");
  if (encoding === "jsonParsed") {
    throw new RpcError(
      RpcErrorCode.INVALID_REQUEST,
      "Sliced account data can only be encoded using binary (base 58) or base64 encoding.",
    );
  }
  return {
    offset: requireUsize(slice.offset, "dataSlice.offset"),
    length: requireUsize(slice.length, "dataSlice.length"),
  };
}

function sliceData(data: Uint8Array, slice: DataSlice | null): Uint8Array {
  if (!slice) return data;
  const start = Math.min(slice.offset, data.length);
  return data.subarray(start, Math.min(data.length, start + slice.length));
}

/** One account in `UiAccount` form. Throws -32600 for base58 data over 128 bytes (agave's rule). */
export function encodeAccount(
  cluster: ClusterPort,
  account: AccountRecord,
  encoding: AccountEncoding,
  slice: DataSlice | null,
): Record<string, unknown> {
  const data = sliceData(account.data, slice);
  return {
    lamports: account.lamports,
    data: encodeAccountData(cluster, account, data, encoding),
    owner: account.owner,
    executable: account.executable,
    rentEpoch: account.rentEpoch,
    space: account.data.length,
  };
}

function encodeAccountData(
  cluster: ClusterPort,
  account: AccountRecord,
  data: Uint8Array,
  encoding: AccountEncoding,
): unknown {
  switch (encoding) {
    case "binary":
    case "base58":
      if (data.length > MAX_BASE58_BYTES) {
        throw new RpcError(
          RpcErrorCode.INVALID_REQUEST,
          `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
        );
      }
      return encoding === "binary" ? base58.decode(data) : [base58.decode(data), "base58"];
    case "base64":
      return [base64.decode(data), "base64"];
    case "jsonParsed":
      return parseTokenAccountJson(cluster, account) ?? [base64.decode(data), "base64"];
  }
}
