import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportConfidentialSecret } from "../confidential/key-export";
import { deriveConfidentialKeys } from "../confidential/keys";
import { errorsImportingMalformedExports, keysetsAsHex } from "../confidential/keys.test-support";
import { isSealedError } from "./errors";
import { deriveViewingKeys, importAccountSecret } from "./viewing-keys";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Both derivations of one secret, as hex, to compare byte for byte. */
const bothWays = (secret: Uint8Array) =>
  keysetsAsHex(deriveConfidentialKeys(secret), deriveViewingKeys(secret));

describe("viewing keys (noble) against the confidential keys (zk-sdk)", () => {
  it("Given the pinned secret of keys.test.ts, then both derive the same pinned v1 keys", () => {
    const { zk, view } = bothWays(new Uint8Array(32).fill(1));
    expect(view).toEqual(zk);
    expect(view[1]).toBe("bcdd2a5d46f5c21504052f86d85408daad6f41e06102dbd1ba9c8df539058b79");
    expect(view[2]).toBe("93cc5002a09d3086b9176698dd6f8361");
  });

  it("Given any secret, then the scalar, pubkey and AE key are byte-identical", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (secret) => {
        const { zk, view } = bothWays(secret);
        expect(view).toEqual(zk);
      }),
      { numRuns: 40 },
    );
  });

  it("Given a secret of the wrong length, then invalid_secret", () => {
    for (const length of [0, 31, 33]) {
      expect(() => deriveViewingKeys(new Uint8Array(length))).toThrow(
        expect.objectContaining({ code: "invalid_secret" }),
      );
    }
  });
});

describe("importAccountSecret (export format v1)", () => {
  it("Given any exported secret, then it imports to the same 32 bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (secret) => {
        expect(hex(importAccountSecret(exportConfidentialSecret(secret)))).toBe(hex(secret));
      }),
    );
  });

  it("Given anything else, then invalid_secret", () => {
    for (const error of errorsImportingMalformedExports(importAccountSecret)) {
      expect(isSealedError(error, "invalid_secret")).toBe(true);
    }
  });
});
