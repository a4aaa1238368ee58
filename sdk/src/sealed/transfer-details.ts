/**
 * Sealed details: a transfer's amount and memo, readable by its sender and its recipient only (for a
 * held agent transaction: by the agent and its owner), so the service can hand them to a browser
 * without ever showing them itself.
 *
 * Envelope v1, 313 bytes whatever the memo (its length must not leak through the envelope's):
 *   [0x01][sender pubkey 32][recipient pubkey 32][salt 16][AES-256-GCM(plaintext 216)][tag 16]
 *   plaintext = amount u64 LE (8) || memo byte length u8 (1) || memo UTF-8 (<= 200) || zeros to 216
 *   shared    = s_self^-1 * P_other (= (s_a * s_b)^-1 * H for either side, as the encrypted memos;
 *               sealed to oneself, P_other is one's own pubkey)
 *   okm       = HKDF-SHA256(ikm = shared, salt, info = "cpay/sealed-details/v1" || sender pubkey ||
 *               recipient pubkey, L = 44) -> AES key 32 || GCM nonce 12
 *   AAD       = the 81 header bytes || UTF-8 of `boundTo` (the id of the resource that carries it)
 * The fresh salt gives every envelope its own key and nonce; `boundTo` stops an envelope being moved
 * onto another transfer. An empty memo opens as null.
 */

import { gcm } from "@noble/ciphers/aes";
import { ristretto255 } from "@noble/curves/ed25519";
import { hkdf } from "@noble/hashes/hkdf";
import { sha256 } from "@noble/hashes/sha2";
import { randomBytes } from "@noble/hashes/utils";
import { fromStrictBase64, toBase64 } from "./base64";
import { SealedError } from "./errors";
import { bigIntToLittleEndian, littleEndianToBigInt } from "./little-endian";
import { PEDERSEN_H, type ViewingKeys } from "./viewing-keys";

const Point = ristretto255.Point;
export const SEALED_DETAILS_VERSION = 1;
export const SEALED_DETAILS_KDF_INFO = "cpay/sealed-details/v1";
/** The longest memo, in UTF-8 bytes: the API's limit (MAX_API_MEMO_BYTES). */
export const MAX_SEALED_MEMO_BYTES = 200;
const PUBKEY_LENGTH = 32;
const SALT_LENGTH = 16;
const TAG_LENGTH = 16;
const HEADER_LENGTH = 1 + 2 * PUBKEY_LENGTH + SALT_LENGTH;
const PLAINTEXT_LENGTH = 216;
/** Every envelope's length in bytes (313; 420 characters of base64). */
export const SEALED_DETAILS_LENGTH = HEADER_LENGTH + PLAINTEXT_LENGTH + TAG_LENGTH;
const MAX_U64 = (1n << 64n) - 1n;

export type SealedDirection = "sent" | "received" | "self";

export interface OpenedTransferDetails {
  readonly amount: bigint;
  readonly memo: string | null;
  /** How the viewer stands to it: its sender, its recipient, or both (sealed to oneself). */
  readonly direction: SealedDirection;
}

/**
 * Seals `amount` and `memo` from the sender (its scalar and pubkey) to `recipientPubkey` (the
 * sender's own pubkey when the recipient has none), bound to the resource id `boundTo`. Returns
 * base64. Throws RangeError on an amount outside u64, a memo over 200 bytes, an identity pubkey or a
 * sender pubkey that is not the sender scalar's.
 */
export function sealTransferDetails(input: {
  readonly amount: bigint;
  readonly memo: string | null;
  readonly senderScalar: bigint;
  readonly senderPubkey: Uint8Array;
  readonly recipientPubkey: Uint8Array;
  readonly boundTo: string;
}): string {
  if (typeof input.amount !== "bigint" || input.amount < 0n || input.amount > MAX_U64)
    throw new RangeError("the amount must be a u64");
  const memo = new TextEncoder().encode(input.memo ?? "");
  if (memo.length > MAX_SEALED_MEMO_BYTES)
    throw new RangeError(`a memo is at most ${MAX_SEALED_MEMO_BYTES} bytes`);
  if (input.senderPubkey.length !== PUBKEY_LENGTH || input.recipientPubkey.length !== PUBKEY_LENGTH)
    throw new RangeError(`an ElGamal pubkey is ${PUBKEY_LENGTH} bytes`);
  // A mismatched pair would seal an envelope nobody can open; refuse it here instead.
  if (
    !equal(
      PEDERSEN_H.multiply(Point.Fn.inv(Point.Fn.create(input.senderScalar))).toBytes(),
      input.senderPubkey,
    )
  )
    throw new RangeError("the sender pubkey is not the sender scalar's");
  const header = new Uint8Array(HEADER_LENGTH);
  header[0] = SEALED_DETAILS_VERSION;
  header.set(input.senderPubkey, 1);
  header.set(input.recipientPubkey, 1 + PUBKEY_LENGTH);
  header.set(randomBytes(SALT_LENGTH), 1 + 2 * PUBKEY_LENGTH);
  const plaintext = new Uint8Array(PLAINTEXT_LENGTH);
  plaintext.set(bigIntToLittleEndian(input.amount, 8));
  plaintext[8] = memo.length;
  plaintext.set(memo, 9);
  const { key, nonce } = envelopeKey(
    sharedPointOf(input.senderScalar, pointOf(input.recipientPubkey)),
    header,
  );
  const body = gcm(key, nonce, aad(header, input.boundTo)).encrypt(plaintext);
  const envelope = new Uint8Array(SEALED_DETAILS_LENGTH);
  envelope.set(header);
  envelope.set(body, HEADER_LENGTH);
  return toBase64(envelope);
}

/**
 * Opens sealed details with the viewer's keys, for the resource id `boundTo`. Throws
 * `SealedError("not_yours")` when the viewer is neither party, `SealedError("malformed")` when the
 * envelope is not v1, was altered, or was sealed for another resource. To open many envelopes, use
 * `detailsOpenerFor`: it computes each counterparty's shared point once.
 */
export function openTransferDetails(input: {
  readonly sealed: string;
  readonly viewer: ViewingKeys;
  readonly boundTo: string;
}): OpenedTransferDetails {
  return detailsOpenerFor(input.viewer)(input.sealed, input.boundTo);
}

/**
 * An `openTransferDetails` for one viewer that remembers the shared point of each counterparty it
 * met (the elliptic-curve multiplication, ~5 ms in a browser, is nearly all of an open's cost; a
 * page of 100 transfers usually has a handful of counterparties). The remembered points are as
 * secret as the viewer's keys and live exactly as long as the returned function.
 */
export function detailsOpenerFor(
  viewer: ViewingKeys,
): (sealed: string, boundTo: string) => OpenedTransferDetails {
  const sharedPoints = new Map<string, Uint8Array>();
  const sharedPointWith = (pubkey: Uint8Array): Uint8Array => {
    const id = Array.from(pubkey, (byte) => byte.toString(16).padStart(2, "0")).join("");
    let shared = sharedPoints.get(id);
    if (shared === undefined) {
      shared = sharedPointOf(viewer.elgamalScalar, pointOf(pubkey));
      sharedPoints.set(id, shared);
    }
    return shared;
  };
  return (sealed, boundTo) => openWith(sealed, viewer, boundTo, sharedPointWith);
}

function openWith(
  sealed: string,
  viewer: ViewingKeys,
  boundTo: string,
  sharedPointWith: (pubkey: Uint8Array) => Uint8Array,
): OpenedTransferDetails {
  const envelope = fromStrictBase64(sealed);
  if (envelope === null || envelope.length !== SEALED_DETAILS_LENGTH)
    throw new SealedError("malformed", "not sealed details");
  if (envelope[0] !== SEALED_DETAILS_VERSION)
    throw new SealedError("malformed", `unknown sealed details version ${envelope[0]}`);
  const header = envelope.subarray(0, HEADER_LENGTH);
  const senderPubkey = header.subarray(1, 1 + PUBKEY_LENGTH);
  const recipientPubkey = header.subarray(1 + PUBKEY_LENGTH, 1 + 2 * PUBKEY_LENGTH);
  const own = viewer.elgamalPubkey;
  const isSender = equal(own, senderPubkey);
  const isRecipient = equal(own, recipientPubkey);
  if (!isSender && !isRecipient) throw new SealedError("not_yours", "sealed for other keys");
  const direction: SealedDirection = isSender && isRecipient ? "self" : isSender ? "sent" : "received";
  let plaintext: Uint8Array;
  try {
    const shared = sharedPointWith(isSender ? recipientPubkey : senderPubkey);
    const { key, nonce } = envelopeKey(shared, header);
    plaintext = gcm(key, nonce, aad(header, boundTo)).decrypt(envelope.subarray(HEADER_LENGTH));
  } catch (cause) {
    throw new SealedError("malformed", "sealed details altered, or bound to another resource", { cause });
  }
  const memoLength = plaintext[8] ?? 0;
  // Authenticated, so only a faulty writer gets here; refuse rather than guess.
  if (memoLength > MAX_SEALED_MEMO_BYTES || plaintext.subarray(9 + memoLength).some((byte) => byte !== 0))
    throw new SealedError("malformed", "sealed details with a bad memo length");
  const amount = littleEndianToBigInt(plaintext.subarray(0, 8));
  let memo: string | null = null;
  if (memoLength > 0) {
    try {
      memo = new TextDecoder("utf-8", { fatal: true }).decode(plaintext.subarray(9, 9 + memoLength));
    } catch (cause) {
      throw new SealedError("malformed", "sealed memo is not UTF-8", { cause });
    }
  }
  return { amount, memo, direction };
}

/** s_own^-1 * P_other: the point both parties compute (memo.ts explains why). */
function sharedPointOf(ownScalar: bigint, other: InstanceType<typeof Point>): Uint8Array {
  return other.multiply(Point.Fn.inv(Point.Fn.create(ownScalar))).toBytes();
}

function envelopeKey(shared: Uint8Array, header: Uint8Array): { key: Uint8Array; nonce: Uint8Array } {
  const label = new TextEncoder().encode(SEALED_DETAILS_KDF_INFO);
  const info = new Uint8Array(label.length + 2 * PUBKEY_LENGTH);
  info.set(label);
  info.set(header.subarray(1, 1 + 2 * PUBKEY_LENGTH), label.length);
  const okm = hkdf(sha256, shared, header.subarray(1 + 2 * PUBKEY_LENGTH, HEADER_LENGTH), info, 44);
  return { key: okm.subarray(0, 32), nonce: okm.subarray(32, 44) };
}

/** The point of a pubkey; the identity is refused (it would make the shared point public). */
function pointOf(pubkey: Uint8Array): InstanceType<typeof Point> {
  const point = Point.fromBytes(pubkey);
  if (point.equals(Point.ZERO)) throw new RangeError("the ElGamal pubkey is the identity");
  return point;
}

function aad(header: Uint8Array, boundTo: string): Uint8Array {
  const bound = new TextEncoder().encode(boundTo);
  const out = new Uint8Array(header.length + bound.length);
  out.set(header);
  out.set(bound, header.length);
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
