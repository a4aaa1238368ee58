import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holdTransactionId } from "./hold-id";

/** RFC 4648 base32, lowercase, unpadded: the service's id alphabet, written the plain way. */
function base32(bytes: Uint8Array): string {
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, "0")).join("");
  const padded = bits.padEnd(Math.ceil(bits.length / 5) * 5, "0");
  return (padded.match(/.{5}/g) ?? [])
    .map((chunk) => "abcdefghijklmnopqrstuvwxyz234567"[parseInt(chunk, 2)])
    .join("");
}

describe("holdTransactionId", () => {
  it("Given any address, then it is tx_ + base32 of the first 16 bytes of SHA-256('cpay hold ' || address)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 32, maxLength: 44 }), (pending) => {
        const digest = createHash("sha256").update(`cpay hold ${pending}`).digest().subarray(0, 16);
        const id = holdTransactionId(pending);
        expect(id).toBe(`tx_${base32(digest)}`);
        expect(id).toHaveLength(29);
      }),
    );
  });
});
