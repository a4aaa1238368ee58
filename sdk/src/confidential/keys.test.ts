import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isConfidentialError } from "./errors";
import { exportConfidentialSecret, importConfidentialSecret } from "./key-export";
import { deriveConfidentialKeys, generateConfidentialSecret } from "./keys";
import { errorsImportingMalformedExports } from "./keys.test-support";
import { ElGamalKeypair, ElGamalPubkey } from "./zk-sdk";

const secret32 = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe("confidential key derivation", () => {
  it("Given the same secret, then the same ElGamal and AE keys come out (deterministic)", () => {
    const secret = generateConfidentialSecret();
    const a = deriveConfidentialKeys(secret);
    const b = deriveConfidentialKeys(Uint8Array.from(secret));
    expect(Buffer.from(b.elgamalPubkey)).toEqual(Buffer.from(a.elgamalPubkey));
    expect(Buffer.from(b.elgamal.secret().toBytes())).toEqual(Buffer.from(a.elgamal.secret().toBytes()));
    expect(Buffer.from(b.ae.toBytes())).toEqual(Buffer.from(a.ae.toBytes()));
  });

  it("Given a fixed secret, then the derivation matches the pinned v1 vector (changing it is a new version)", () => {
    const keys = deriveConfidentialKeys(new Uint8Array(32).fill(1));
    expect(Buffer.from(keys.elgamalPubkey).toString("hex")).toMatchInlineSnapshot(
      `"bcdd2a5d46f5c21504052f86d85408daad6f41e06102dbd1ba9c8df539058b79"`,
    );
    expect(Buffer.from(keys.ae.toBytes()).toString("hex")).toMatchInlineSnapshot(
      `"93cc5002a09d3086b9176698dd6f8361"`,
    );
  });

  it("Given any secret, then the keys work: AE round-trips and the pubkey is the secret's", () => {
    fc.assert(
      fc.property(secret32, fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (secret, amount) => {
        const keys = deriveConfidentialKeys(secret);
        expect(keys.ae.decrypt(keys.ae.encrypt(amount))).toBe(amount);
        const fromSecret = ElGamalPubkey.fromSecretKey(keys.elgamal.secret()).toBytes();
        expect(Buffer.from(fromSecret)).toEqual(Buffer.from(keys.elgamalPubkey));
      }),
      { numRuns: 25 },
    );
  });

  it("Given different secrets, then the keys differ, and the AE key is not a slice of the ElGamal key", () => {
    const a = deriveConfidentialKeys(new Uint8Array(32).fill(1));
    const b = deriveConfidentialKeys(new Uint8Array(32).fill(2));
    expect(Buffer.from(a.elgamalPubkey)).not.toEqual(Buffer.from(b.elgamalPubkey));
    expect(Buffer.from(a.elgamal.secret().toBytes()).includes(Buffer.from(a.ae.toBytes()))).toBe(false);
    expect(a.elgamal).toBeInstanceOf(ElGamalKeypair);
  });

  it("Given a secret of the wrong length, then invalid_secret", () => {
    for (const length of [0, 16, 31, 33, 64]) {
      expect(() => deriveConfidentialKeys(new Uint8Array(length))).toThrow(
        expect.objectContaining({ code: "invalid_secret" }),
      );
    }
  });
});

describe("key export format v1", () => {
  it("Given any secret, then export -> import round-trips through 44 base64 characters starting with version 1", () => {
    fc.assert(
      fc.property(secret32, (secret) => {
        const exported = exportConfidentialSecret(secret);
        expect(exported).toHaveLength(44);
        expect(Buffer.from(exported, "base64")[0]).toBe(1);
        expect(Buffer.from(importConfidentialSecret(exported))).toEqual(Buffer.from(secret));
      }),
    );
  });

  it("Given malformed exports, then import throws invalid_secret", () => {
    for (const error of errorsImportingMalformedExports(importConfidentialSecret)) {
      expect(isConfidentialError(error, "invalid_secret")).toBe(true);
    }
  });
});
