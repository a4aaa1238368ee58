/**
 * The account holder's view of its confidential keys, derived in the browser without zk-sdk.
 *
 * The derivation is the one of `@cpay/sdk/confidential` (keys.ts), written again over noble so it
 * loads in a browser: ElGamal scalar s = HKDF-SHA256(secret, salt "", info
 * "cpay/confidential/elgamal/v1", L 64) little-endian mod l; pubkey P = s^-1 * H (zk-sdk's Pedersen
 * blinding base H = Ristretto from_uniform_bytes(SHA3-512(compressed Ristretto basepoint))); AE key =
 * HKDF-SHA256(secret, salt "", info "cpay/confidential/ae/v1", L 16). A test derives both ways.
 */
import { ristretto255 } from "@noble/curves/ed25519";
import { hkdf } from "@noble/hashes/hkdf";
import { sha256 } from "@noble/hashes/sha2";
import { sha3_512 } from "@noble/hashes/sha3";
import { fromStrictBase64, toBase64 } from "./base64";
import { SealedError } from "./errors";
import { littleEndianToBigInt } from "./little-endian";

const Point = ristretto255.Point;
const SECRET_LENGTH = 32;
const EXPORT_VERSION = 1;
const ELGAMAL_KDF_INFO = "cpay/confidential/elgamal/v1";
const AE_KDF_INFO = "cpay/confidential/ae/v1";

/** zk-sdk's Pedersen blinding base H, the base of every ElGamal public key. */
export const PEDERSEN_H = Point.hashToCurve(sha3_512(Point.BASE.toBytes()));

/** What a holder needs to read its amounts. Holds secrets: never log, store or send it. */
export interface ViewingKeys {
  readonly elgamalScalar: bigint;
  /** As stored in the token account's extension and returned by `GET /v1/accounts/me`. */
  readonly elgamalPubkey: Uint8Array;
  readonly aeKey: Uint8Array;
}

/**
 * The 32-byte secret of an exported account key (format v1: canonical base64 of `[0x01][secret 32]`,
 * 44 characters). Throws `SealedError("invalid_secret")` on anything else.
 */
export function importAccountSecret(exported: string): Uint8Array {
  const bytes = fromStrictBase64(exported);
  if (bytes === null || bytes.length !== 1 + SECRET_LENGTH)
    throw new SealedError("invalid_secret", "not an exported account secret");
  if (bytes[0] !== EXPORT_VERSION)
    throw new SealedError("invalid_secret", `unknown account secret export version ${bytes[0]}`);
  return bytes.slice(1);
}

/** The export format of a 32-byte account secret: the inverse of `importAccountSecret`. */
export function exportAccountSecret(secret: Uint8Array): string {
  if (!(secret instanceof Uint8Array) || secret.length !== SECRET_LENGTH)
    throw new SealedError("invalid_secret", `the account secret must be ${SECRET_LENGTH} bytes`);
  const bytes = new Uint8Array(1 + SECRET_LENGTH);
  bytes[0] = EXPORT_VERSION;
  bytes.set(secret, 1);
  return toBase64(bytes);
}

/** The ElGamal scalar and pubkey and the AE key of the account whose secret this is (file doc). */
export function deriveViewingKeys(secret: Uint8Array): ViewingKeys {
  if (!(secret instanceof Uint8Array) || secret.length !== SECRET_LENGTH)
    throw new SealedError("invalid_secret", `the account secret must be ${SECRET_LENGTH} bytes`);
  const encoder = new TextEncoder();
  const wide = hkdf(sha256, secret, new Uint8Array(0), encoder.encode(ELGAMAL_KDF_INFO), 64);
  const elgamalScalar = Point.Fn.create(littleEndianToBigInt(wide));
  if (elgamalScalar === 0n) throw new SealedError("invalid_secret", "the secret derives a zero ElGamal key");
  const elgamalPubkey = PEDERSEN_H.multiply(Point.Fn.inv(elgamalScalar)).toBytes();
  const aeKey = hkdf(sha256, secret, new Uint8Array(0), encoder.encode(AE_KDF_INFO), 16);
  return { elgamalScalar, elgamalPubkey, aeKey };
}
