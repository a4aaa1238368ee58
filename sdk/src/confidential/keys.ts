/**
 * Per-account confidential keys, derived deterministically from one 32-byte secret (DESIGN 6).
 *
 * The vault stores only the secret; the ElGamal keypair (encrypts balances, proves statements about
 * them) and the AE key (the owner's fast, 16-byte authenticated encryption of the available balance)
 * are re-derived on demand, so rotating storage or exporting to the holder moves one value.
 *
 * Derivation (versioned; changing it changes every account's keys, so a new scheme gets a new info
 * string, never an edit):
 * - ElGamal: HKDF-SHA256(ikm = secret, salt = "", info = "cpay/confidential/elgamal/v1", L = 64),
 *   read little-endian and reduced modulo the Ristretto group order l (64 bytes make the bias
 *   ~2^-260); a zero scalar is rejected (probability ~2^-252). zk-sdk `ElGamalSecretKey.fromBytes`.
 * - AE: HKDF-SHA256(ikm = secret, salt = "", info = "cpay/confidential/ae/v1", L = 16), zk-sdk
 *   `AeKey.fromBytes`.
 * The two info strings make the keys independent: knowing one says nothing about the other.
 */
import { hkdfSync, randomBytes } from "node:crypto";
import { bigIntToLittleEndian, littleEndianToBigInt } from "../sealed/little-endian";
import { ConfidentialError } from "./errors";
import { AeKey, ElGamalKeypair, ElGamalSecretKey } from "./zk-sdk";

export { bigIntToLittleEndian, littleEndianToBigInt };

export const CONFIDENTIAL_SECRET_LENGTH = 32;
export const ELGAMAL_KDF_INFO = "cpay/confidential/elgamal/v1";
export const AE_KDF_INFO = "cpay/confidential/ae/v1";
export const AGENT_SECRET_KDF_INFO = "cpay/confidential/agent/v1";

/** The Ristretto255 group order l = 2^252 + 27742317777372353535851937790883648493. */
export const RISTRETTO_GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

/** The keys of one confidential token account. Holds secrets: never log or serialise it. */
export interface ConfidentialKeyset {
  readonly elgamal: ElGamalKeypair;
  readonly ae: AeKey;
  /** The ElGamal public key as stored in the token account's extension (32 bytes). */
  readonly elgamalPubkey: Uint8Array;
}

/** A fresh random per-account secret, for the vault. */
export function generateConfidentialSecret(): Uint8Array {
  return new Uint8Array(randomBytes(CONFIDENTIAL_SECRET_LENGTH));
}

/** Derives the ElGamal keypair and AE key of one account from its 32-byte secret (see file doc). */
export function deriveConfidentialKeys(secret: Uint8Array): ConfidentialKeyset {
  if (!(secret instanceof Uint8Array) || secret.length !== CONFIDENTIAL_SECRET_LENGTH) {
    throw new ConfidentialError(
      "invalid_secret",
      `the confidential secret must be ${CONFIDENTIAL_SECRET_LENGTH} bytes`,
    );
  }
  const scalar = littleEndianToBigInt(hkdf(secret, ELGAMAL_KDF_INFO, 64)) % RISTRETTO_GROUP_ORDER;
  if (scalar === 0n) throw new ConfidentialError("invalid_secret", "the secret derives a zero ElGamal key");
  const elgamal = ElGamalKeypair.fromSecretKey(ElGamalSecretKey.fromBytes(bigIntToLittleEndian(scalar, 32)));
  const ae = AeKey.fromBytes(hkdf(secret, AE_KDF_INFO, 16));
  return { elgamal, ae, elgamalPubkey: elgamal.pubkey().toBytes() };
}

/**
 * The confidential secret of the agent `agentHandle` (`@owner/name`, normalised) owned by the holder
 * of `ownerSecret`: HKDF-SHA256(ikm = owner secret, info = "cpay/confidential/agent/v1" || 0x00 ||
 * handle, L = 32). The owner, who received its own secret once, derives every agent's keys
 * client-side and reads their amounts; the service derives the same secret to prove the agent's
 * spends, and never has to hand an agent secret out.
 */
export function deriveAgentConfidentialSecret(ownerSecret: Uint8Array, agentHandle: string): Uint8Array {
  if (!(ownerSecret instanceof Uint8Array) || ownerSecret.length !== CONFIDENTIAL_SECRET_LENGTH) {
    throw new ConfidentialError(
      "invalid_secret",
      `the owner's secret must be ${CONFIDENTIAL_SECRET_LENGTH} bytes`,
    );
  }
  return hkdf(ownerSecret, `${AGENT_SECRET_KDF_INFO}\u0000${agentHandle}`, CONFIDENTIAL_SECRET_LENGTH);
}

function hkdf(secret: Uint8Array, info: string, length: number): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, new Uint8Array(0), info, length));
}
