/**
 * Sealing an amount to one viewer from a fresh ephemeral key: for a figure the service reads from
 * public state (an agent's public spend today) and must still not show in plaintext. The envelope is
 * sealed details v1 (transfer-details.ts) whose sender is a one-time ElGamal keypair: its scalar
 * lives only in this call, so the service needs no secret of its own or of any account to seal,
 * and only the viewer opens it (as `direction: "received"`). The memo is always empty.
 */
import { ristretto255 } from "@noble/curves/ed25519";
import { randomBytes } from "@noble/hashes/utils";
import { littleEndianToBigInt } from "./little-endian";
import { sealTransferDetails } from "./transfer-details";
import { PEDERSEN_H } from "./viewing-keys";

const Point = ristretto255.Point;

/**
 * `amount` sealed to the viewer whose ElGamal pubkey is `viewerPubkey`, bound to `boundTo`; opened
 * with `openTransferDetails`. Throws RangeError on an amount outside u64 or an identity pubkey.
 */
export function sealAmountToViewer(input: {
  readonly amount: bigint;
  readonly viewerPubkey: Uint8Array;
  readonly boundTo: string;
}): string {
  const scalar = ephemeralScalar();
  return sealTransferDetails({
    amount: input.amount,
    memo: null,
    senderScalar: scalar,
    senderPubkey: PEDERSEN_H.multiply(Point.Fn.inv(scalar)).toBytes(),
    recipientPubkey: input.viewerPubkey,
    boundTo: input.boundTo,
  });
}

/** A uniform non-zero scalar: 64 random bytes reduced mod l (bias ~2^-260). */
function ephemeralScalar(): bigint {
  for (;;) {
    const scalar = Point.Fn.create(littleEndianToBigInt(randomBytes(64)));
    if (scalar !== 0n) return scalar;
  }
}
