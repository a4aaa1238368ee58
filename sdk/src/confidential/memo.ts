/**
 * Encrypted transfer memos, readable by the sender and the recipient only (DESIGN 6).
 *
 * Key agreement uses the accounts' existing ElGamal keys, so no new key is distributed. zk-sdk
 * public keys are P = s^-1 * H (s the secret scalar, H the Pedersen blinding base), so the shared
 * point is s_a^-1 * P_b = (s_a * s_b)^-1 * H, which either side computes from its own secret and
 * the other's public key. Per memo:
 *   salt  = 16 random bytes
 *   okm   = HKDF-SHA256(ikm = shared point (32 B), salt, info = "cpay/confidential/memo/v1" ||
 *           sender pubkey || recipient pubkey, L = 44) -> AES-256 key (32) || GCM nonce (12)
 *   padded   = plaintext || 0x80 || 0x00...   up to the smallest bucket that holds it (MEMO_BUCKETS)
 *   envelope = [0x02 version][salt 16][AES-256-GCM(padded)][tag 16]   (33 bytes of overhead)
 *   AAD = version || salt || caller's associated data (e.g. the transfer's id)
 * A fresh salt gives every memo its own key and nonce. The pubkeys in `info` bind direction: a memo
 * from A to B does not decrypt as a memo from B to A. The envelope lands on-chain, so its length is
 * public: padding to a few buckets leaves only the bucket to be seen, not the memo's length. The
 * first format (version 0x01: the plaintext unpadded, same key schedule) still decrypts.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { RistrettoPoint } from "@noble/curves/ed25519";
import { MAX_MEMO_BYTES as MAX_RECORD_MEMO_BYTES } from "../program/instructions";
import { ConfidentialError } from "./errors";
import { type ConfidentialKeyset, littleEndianToBigInt, RISTRETTO_GROUP_ORDER } from "./keys";

/** The envelope format written: padded plaintext. */
export const MEMO_VERSION = 2;
/** The first format: the plaintext unpadded (read, never written). */
const UNPADDED_VERSION = 1;
export const MEMO_KDF_INFO = "cpay/confidential/memo/v1";
const SALT_LENGTH = 16;
const TAG_LENGTH = 16;
const HEADER_LENGTH = 1 + SALT_LENGTH;
/** Envelope bytes beyond the padded plaintext: version, salt, GCM tag. */
export const MEMO_ENVELOPE_OVERHEAD = HEADER_LENGTH + TAG_LENGTH;
/**
 * Padded plaintext lengths, smallest first. The largest fills the program's memo limit exactly
 * (256 - 33 = 223), so the envelopes are 65, 97, 161 or 256 bytes.
 */
export const MEMO_BUCKETS: readonly number[] = [32, 64, 128, MAX_RECORD_MEMO_BYTES - MEMO_ENVELOPE_OVERHEAD];
/** The padding's end marker: the byte after the plaintext (zeros follow). */
const PAD_MARKER = 0x80;
/**
 * The longest plaintext memo, in bytes (UTF-8 for text): the largest bucket less the marker, 222.
 * The one limit on memo plaintext in the SDK (the program's limit is on the envelope).
 */
export const MAX_MEMO_PLAINTEXT_BYTES = (MEMO_BUCKETS[MEMO_BUCKETS.length - 1] as number) - 1;

export interface MemoParties {
  readonly senderPubkey: Uint8Array;
  readonly recipientPubkey: Uint8Array;
}

/** Encrypts `plaintext` from `senderKeys` to `recipientPubkey`. */
export function encryptMemo(input: {
  readonly plaintext: Uint8Array;
  readonly senderKeys: ConfidentialKeyset;
  readonly recipientPubkey: Uint8Array;
  readonly associatedData?: Uint8Array;
}): Uint8Array {
  if (input.plaintext.length > MAX_MEMO_PLAINTEXT_BYTES)
    throw new RangeError(`a memo is at most ${MAX_MEMO_PLAINTEXT_BYTES} bytes`);
  const header = new Uint8Array(HEADER_LENGTH);
  header[0] = MEMO_VERSION;
  header.set(randomBytes(SALT_LENGTH), 1);
  const parties = { senderPubkey: input.senderKeys.elgamalPubkey, recipientPubkey: input.recipientPubkey };
  const { key, nonce } = memoKey(input.senderKeys, input.recipientPubkey, parties, header.subarray(1));
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(aad(header, input.associatedData));
  const body = Buffer.concat([cipher.update(pad(input.plaintext)), cipher.final(), cipher.getAuthTag()]);
  return Uint8Array.from(Buffer.concat([header, body]));
}

/**
 * Decrypts a memo with either party's keys (`keys` must belong to the sender or the recipient).
 * Throws `memo_undecryptable` when it is malformed, altered, or not for these keys.
 */
export function decryptMemo(input: {
  readonly envelope: Uint8Array;
  readonly keys: ConfidentialKeyset;
  readonly parties: MemoParties;
  readonly associatedData?: Uint8Array;
}): Uint8Array {
  const { envelope, keys, parties } = input;
  const fail = (why: string, cause?: unknown) =>
    new ConfidentialError("memo_undecryptable", `memo cannot be decrypted: ${why}`, { cause });
  if (envelope.length < HEADER_LENGTH + TAG_LENGTH) throw fail("too short");
  const version = envelope[0];
  if (version !== MEMO_VERSION && version !== UNPADDED_VERSION) throw fail(`unknown version ${version}`);
  const own = keys.elgamalPubkey;
  const counterparty = equal(own, parties.senderPubkey)
    ? parties.recipientPubkey
    : equal(own, parties.recipientPubkey)
      ? parties.senderPubkey
      : null;
  if (counterparty === null) throw fail("these keys are neither the sender's nor the recipient's");
  const header = envelope.subarray(0, HEADER_LENGTH);
  let plaintext: Buffer;
  try {
    const { key, nonce } = memoKey(keys, counterparty, parties, header.subarray(1));
    const decipher = createDecipheriv("aes-256-gcm", key, nonce);
    decipher.setAAD(aad(header, input.associatedData));
    decipher.setAuthTag(envelope.subarray(envelope.length - TAG_LENGTH));
    plaintext = Buffer.concat([
      decipher.update(envelope.subarray(HEADER_LENGTH, envelope.length - TAG_LENGTH)),
      decipher.final(),
    ]);
  } catch (cause) {
    throw fail("authentication failed", cause);
  }
  if (version === UNPADDED_VERSION) return Uint8Array.from(plaintext);
  const unpadded = unpad(plaintext);
  // Authenticated, so only a faulty writer can get here.
  if (unpadded === null) throw fail("bad padding");
  return unpadded;
}

/** `plaintext || 0x80 || 0x00...` up to the smallest bucket that holds it. */
function pad(plaintext: Uint8Array): Uint8Array {
  const bucket = MEMO_BUCKETS.find((size) => size > plaintext.length);
  if (bucket === undefined) throw new RangeError(`a memo is at most ${MAX_MEMO_PLAINTEXT_BYTES} bytes`);
  const padded = new Uint8Array(bucket);
  padded.set(plaintext);
  padded[plaintext.length] = PAD_MARKER;
  return padded;
}

/** The plaintext before the last 0x80 that only zeros follow, or null when there is none. */
function unpad(padded: Uint8Array): Uint8Array | null {
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  return end >= 0 && padded[end] === PAD_MARKER ? Uint8Array.from(padded.subarray(0, end)) : null;
}

function memoKey(
  own: ConfidentialKeyset,
  counterpartyPubkey: Uint8Array,
  parties: MemoParties,
  salt: Uint8Array,
): { key: Uint8Array; nonce: Uint8Array } {
  const secret = littleEndianToBigInt(own.elgamal.secret().toBytes());
  const inverse = modInverse(secret, RISTRETTO_GROUP_ORDER);
  const counterparty = RistrettoPoint.fromHex(counterpartyPubkey);
  // The identity "key" would make the shared point (and so the memo key) public.
  if (counterparty.equals(RistrettoPoint.ZERO))
    throw new RangeError("the counterparty ElGamal key is the identity");
  const shared = counterparty.multiply(inverse).toRawBytes();
  const info = Buffer.concat([Buffer.from(MEMO_KDF_INFO), parties.senderPubkey, parties.recipientPubkey]);
  const okm = new Uint8Array(hkdfSync("sha256", shared, salt, info, 44));
  return { key: okm.subarray(0, 32), nonce: okm.subarray(32, 44) };
}

function aad(header: Uint8Array, associatedData: Uint8Array | undefined): Uint8Array {
  return Buffer.concat([header, associatedData ?? new Uint8Array(0)]);
}

/** a^-1 mod m by Fermat (m prime): a^(m-2). Square-and-multiply over a fixed 253-bit exponent. */
function modInverse(a: bigint, m: bigint): bigint {
  let result = 1n;
  let base = a % m;
  let exponent = m - 2n;
  while (exponent > 0n) {
    if (exponent & 1n) result = (result * base) % m;
    base = (base * base) % m;
    exponent >>= 1n;
  }
  return result;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
