/**
 * Readers for JSON-RPC `params`: positional arrays whose last member is usually a config object.
 *
 * This is the trust boundary of the localnet, so every reader either returns a value of the right
 * type or throws -32602 with a message naming the parameter and what was wrong with it (agave's
 * serde wording where it has one). Unknown config keys are ignored, as agave's serde structs do.
 */
import type { Commitment } from "../cluster/cluster-port";
import { Base58Error, decodeBase58 } from "./base58";
import { invalidParams } from "./json-rpc-errors";

export type Config = Readonly<Record<string, unknown>>;

/** serde's description of an unexpected JSON value, e.g. integer `5`, string "abc". */
export function describeJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number")
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (Array.isArray(value)) return "sequence";
  return "map";
}

function wrongType(label: string, value: unknown, expected: string): Error {
  return invalidParams(
    `Invalid params: ${label}: invalid type: ${describeJson(value)}, expected ${expected}.`,
  );
}

/**
 * The positional parameters of a call, between `min` and `max` of them. Absent `params` counts as
 * none; named (object) params are refused because no Solana method takes them.
 */
export function positional(params: unknown, min: number, max: number): readonly unknown[] {
  if (params === undefined || params === null) {
    if (min === 0) return [];
    throw invalidParams(`Invalid params: expected ${arity(min, max)}, got none`);
  }
  if (!Array.isArray(params)) throw wrongType("params", params, "an array of positional parameters");
  if (params.length < min || params.length > max) {
    throw invalidParams(`Invalid params: expected ${arity(min, max)}, got ${params.length}`);
  }
  return params;
}

function arity(min: number, max: number): string {
  const count = (n: number) => `${n} ${n === 1 ? "parameter" : "parameters"}`;
  if (min === max) return count(max);
  return min === 0 ? `at most ${count(max)}` : `${min} to ${count(max)}`;
}

export function requireString(value: unknown, label: string): string {
  if (typeof value !== "string") throw wrongType(label, value, "a string");
  return value;
}

export function requireBoolean(value: unknown, label: string): boolean {
  if (typeof value !== "boolean") throw wrongType(label, value, "a boolean");
  return value;
}

/**
 * A non-negative integer sent as a JSON number. Values above 2^53 - 1 lose precision in JSON.parse,
 * so they are refused rather than silently rounded.
 */
export function requireU64(value: unknown, label: string): bigint {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw wrongType(label, value, "u64");
  if (!Number.isSafeInteger(value)) {
    throw invalidParams(
      `Invalid params: ${label}: ${value} is above 2^53 - 1, the largest exact integer this localnet reads`,
    );
  }
  return BigInt(value);
}

export function requireUsize(value: unknown, label: string): number {
  return Number(requireU64(value, label));
}

/** A base58 public key; agave answers `Invalid param: WrongSize` / `Invalid param: Invalid`. */
export function requireAddress(value: unknown, label: string): string {
  return requireBase58Bytes(value, label, 32, "a base58-encoded 32-byte address");
}

/** A base58 32-byte hash (a blockhash). */
export function requireHash(value: unknown, label: string): string {
  return requireBase58Bytes(value, label, 32, "a base58-encoded 32-byte hash");
}

/** A base58 transaction signature (64 bytes). */
export function requireSignature(value: unknown, label: string): string {
  return requireBase58Bytes(value, label, 64, "a base58-encoded 64-byte signature");
}

function requireBase58Bytes(value: unknown, label: string, size: number, what: string): string {
  const text = requireString(value, label);
  let bytes: Uint8Array;
  try {
    // A 64-byte value is at most 88 base58 characters; longer input is refused before decoding.
    if (text.length > 2 * size) throw new Base58Error("too long");
    bytes = decodeBase58(text);
  } catch (error) {
    if (!(error instanceof Base58Error)) throw error;
    throw invalidParams(`Invalid param: Invalid (${label} is not ${what}: ${JSON.stringify(text)})`);
  }
  if (bytes.length !== size) {
    throw invalidParams(`Invalid param: WrongSize (${label} is ${bytes.length} bytes, expected ${what})`);
  }
  return text;
}

/** The optional trailing config object; `null` and absence both mean "defaults". */
export function optionalConfig(value: unknown, label: string): Config {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw wrongType(label, value, "a config object");
  return value as Config;
}

const COMMITMENTS: readonly Commitment[] = ["processed", "confirmed", "finalized"];

/** `config[key]` as a commitment (key `commitment` unless told); a validator's default is `finalized`. */
export function readCommitment(
  config: Config,
  fallback: Commitment = "finalized",
  key = "commitment",
): Commitment {
  return readEnum(config, key, COMMITMENTS, fallback);
}

/** Numeric rank so commitments compare: processed < confirmed < finalized. */
export function commitmentRank(commitment: Commitment): number {
  return COMMITMENTS.indexOf(commitment);
}

export function optionalU64(config: Config, key: string): bigint | undefined {
  const value = config[key];
  return value === undefined || value === null ? undefined : requireU64(value, key);
}

export function optionalBoolean(config: Config, key: string): boolean | undefined {
  const value = config[key];
  return value === undefined || value === null ? undefined : requireBoolean(value, key);
}

export function optionalString(config: Config, key: string): string | undefined {
  const value = config[key];
  return value === undefined || value === null ? undefined : requireString(value, key);
}

/** One of `allowed` (or `fallback` when absent), refusing anything else by name. */
export function readEnum<T extends string>(
  config: Config,
  key: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalidParams(
    `Invalid params: ${key}: unknown variant ${describeJson(value)}, expected one of ${allowed.map((a) => `\`${a}\``).join(", ")}.`,
  );
}
