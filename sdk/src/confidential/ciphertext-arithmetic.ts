/**
 * Homomorphic arithmetic on twisted-ElGamal ciphertexts (64 bytes = Pedersen commitment C = x*G +
 * r*H, then decrypt handle D = r*P), done on Ristretto points with @noble/curves because zk-sdk
 * 0.4.1 exposes no ciphertext arithmetic. Token-2022 computes the same combinations on-chain, so a
 * proof built from these values matches what the program checks.
 */
import { RistrettoPoint } from "@noble/curves/ed25519";

type Point = InstanceType<typeof RistrettoPoint>;

export const ELGAMAL_CIPHERTEXT_LENGTH = 64;

/** A ciphertext's two points: the Pedersen commitment, then the decrypt handle. */
export interface CiphertextPoints {
  readonly commitment: Point;
  readonly handle: Point;
}

/** The two points of a 64-byte ciphertext; a RangeError for any other length. */
export function decodeCiphertext(ciphertext: Uint8Array): CiphertextPoints {
  if (ciphertext.length !== ELGAMAL_CIPHERTEXT_LENGTH) {
    throw new RangeError(`an ElGamal ciphertext is 64 bytes, got ${ciphertext.length}`);
  }
  return {
    commitment: RistrettoPoint.fromHex(ciphertext.subarray(0, 32)),
    handle: RistrettoPoint.fromHex(ciphertext.subarray(32, 64)),
  };
}

/** The 64 bytes of a ciphertext: commitment, then handle. */
export function encodeCiphertext(ciphertext: CiphertextPoints): Uint8Array {
  const bytes = new Uint8Array(ELGAMAL_CIPHERTEXT_LENGTH);
  bytes.set(ciphertext.commitment.toRawBytes(), 0);
  bytes.set(ciphertext.handle.toRawBytes(), 32);
  return bytes;
}

/** scalar * point, constant-time for non-zero scalars (amounts are secrets). */
function times(point: Point, scalar: bigint): Point {
  return scalar === 0n ? RistrettoPoint.ZERO : point.multiply(scalar);
}

/** The ciphertext (commitment, handle #index) out of a grouped ciphertext (commitment, handles...). */
export function ciphertextFromGrouped(grouped: Uint8Array, handleIndex: number): Uint8Array {
  const start = 32 + handleIndex * 32;
  if (!Number.isInteger(handleIndex) || handleIndex < 0 || grouped.length < start + 32) {
    throw new RangeError(`grouped ciphertext has no handle ${handleIndex}`);
  }
  const ciphertext = new Uint8Array(ELGAMAL_CIPHERTEXT_LENGTH);
  ciphertext.set(grouped.subarray(0, 32), 0);
  ciphertext.set(grouped.subarray(start, start + 32), 32);
  return ciphertext;
}

/** Enc(x) -> Enc(x - amount): subtracts amount*G from the commitment (the handle is unchanged). */
export function subtractAmount(ciphertext: Uint8Array, amount: bigint): Uint8Array {
  const { commitment, handle } = decodeCiphertext(ciphertext);
  return encodeCiphertext({ commitment: commitment.subtract(times(RistrettoPoint.BASE, amount)), handle });
}

/** Enc(x), Enc(lo), Enc(hi) -> Enc(x - (lo + hi * 2^loBits)), as Token-2022 debits a transfer. */
export function subtractLoHi(
  ciphertext: Uint8Array,
  lo: Uint8Array,
  hi: Uint8Array,
  loBits: bigint,
): Uint8Array {
  const base = decodeCiphertext(ciphertext);
  const low = decodeCiphertext(lo);
  const high = decodeCiphertext(hi);
  // The scale 2^loBits is a public constant, so the variable-time multiplication leaks nothing.
  const scale = 1n << loBits;
  return encodeCiphertext({
    commitment: base.commitment.subtract(low.commitment).subtract(high.commitment.multiplyUnsafe(scale)),
    handle: base.handle.subtract(low.handle).subtract(high.handle.multiplyUnsafe(scale)),
  });
}

/**
 * Enc(x), Enc(y) -> Enc(x + y), both under the same key: commitments and handles add pointwise, and
 * the openings add with them, so the key that decrypts either operand decrypts the sum. All-zero
 * bytes decode as the identity, so adding to Token-2022's initial zero ciphertext works unchanged.
 */
export function addCiphertexts(left: Uint8Array, right: Uint8Array): Uint8Array {
  // All-zero bytes are the identity (both points encode as 32 zero bytes): adding it changes
  // nothing, so the other side's bytes are the sum (Ristretto encodings are canonical). It is still
  // decoded, so a malformed ciphertext is refused either way.
  if (isZeroCiphertext(left)) {
    decodeCiphertext(right);
    return right.slice();
  }
  if (isZeroCiphertext(right)) {
    decodeCiphertext(left);
    return left.slice();
  }
  const a = decodeCiphertext(left);
  const b = decodeCiphertext(right);
  return encodeCiphertext({ commitment: a.commitment.add(b.commitment), handle: a.handle.add(b.handle) });
}

/** True when all 64 bytes are zero: Token-2022's initial "encryption of 0" with no randomness. */
export function isZeroCiphertext(ciphertext: Uint8Array): boolean {
  return ciphertext.every((byte) => byte === 0);
}
