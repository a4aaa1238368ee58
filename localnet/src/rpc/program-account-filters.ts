/**
 * getProgramAccounts filters: `{dataSize}`, `{memcmp: {offset, bytes, encoding?}}` and
 * `{tokenAccountState: {}}`, validated like agave (at most 4 filters, memcmp bytes at most 128, base58
 * by default) and compiled once into a predicate over account data.
 */
import type { AccountRecord } from "../cluster/cluster-port";
import { Base58Error, decodeBase58 } from "./base58";
import { Base64Error, decodeBase64 } from "./base64";
import { invalidParams } from "./json-rpc-errors";
import { optionalConfig, readEnum, requireString, requireUsize } from "./params";
import { readTokenAccount } from "./token-layout";

const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;

export type AccountFilter = (account: AccountRecord) => boolean;

function memcmpFilter(value: unknown, label: string): AccountFilter {
  const memcmp = optionalConfig(value, label);
  const offset = requireUsize(memcmp.offset, `${label}.offset`);
  const text = requireString(memcmp.bytes, `${label}.bytes`);
  const encoding = readEnum(memcmp, "encoding", ["base58", "base64"], "base58");
  let bytes: Uint8Array;
  try {
    bytes = encoding === "base58" ? decodeBase58(text) : decodeBase64(text);
  } catch (error) {
    if (error instanceof Base58Error || error instanceof Base64Error) {
      throw invalidParams(`Invalid param: ${label}.bytes: invalid ${encoding} encoding: ${error.message}`);
    }
    throw error;
  }
  if (bytes.length > MAX_MEMCMP_BYTES) {
    throw invalidParams(`Invalid param: ${label}.bytes: encoded binary data should be less than 129 bytes`);
  }
  return ({ data }) => {
    if (offset + bytes.length > data.length) return false;
    for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
    return true;
  };
}

function compileFilter(value: unknown, index: number): AccountFilter {
  const label = `filters[${index}]`;
  const filter = optionalConfig(value, label);
  const keys = Object.keys(filter);
  if (keys.length !== 1) {
    throw invalidParams(
      `Invalid params: ${label}: expected exactly one of dataSize, memcmp, tokenAccountState`,
    );
  }
  if ("dataSize" in filter) {
    const size = requireUsize(filter.dataSize, `${label}.dataSize`);
    return ({ data }) => data.length === size;
  }
  if ("memcmp" in filter) return memcmpFilter(filter.memcmp, `${label}.memcmp`);
  if ("tokenAccountState" in filter) return (account) => readTokenAccount(account) !== null;
  throw invalidParams(
    `Invalid params: ${label}: unknown filter \`${keys[0]}\`, expected dataSize, memcmp or tokenAccountState`,
  );
}

/** One predicate for the `filters` config member (absent -> every account matches). */
export function compileFilters(value: unknown): AccountFilter {
  if (value === undefined || value === null) return () => true;
  if (!Array.isArray(value)) throw invalidParams("Invalid params: filters: expected an array of filters");
  if (value.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  const filters = value.map(compileFilter);
  return (account) => filters.every((filter) => filter(account));
}
