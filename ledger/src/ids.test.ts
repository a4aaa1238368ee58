import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesOfId, idFromBytes, newId } from "./ids";

describe("service identifiers", () => {
  it("are <prefix>_ + 26 lowercase base32 characters", () => {
    expect(newId("tr")).toMatch(/^tr_[a-z2-7]{26}$/);
    expect(newId("acct")).toMatch(/^acct_[a-z2-7]{26}$/);
  });

  it("round-trip their 16 bytes (the on-chain transfer id)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        expect(bytesOfId(idFromBytes("tr", bytes))).toEqual(bytes);
      }),
    );
    const bytes = new Uint8Array(randomBytes(16));
    expect(bytesOfId(idFromBytes("tx", bytes))).toEqual(bytes);
  });

  it("refuse malformed ids", () => {
    expect(() => bytesOfId("tr_short")).toThrow(RangeError);
    expect(() => bytesOfId(`tr_${"1".repeat(26)}`)).toThrow(RangeError);
  });
});
