import { describe, expect, it } from "vitest";
import { generateMasterKeyHex, openSecret, parseMasterKey, sealSecret, VaultError } from "./vault-crypto";

const key = parseMasterKey(generateMasterKeyHex());
const secret = new Uint8Array(32).map((_, i) => i + 1);

describe("the vault", () => {
  it("opens what it sealed, for the same row", () => {
    const sealed = sealSecret(key, "acct_a", "wallet_seed", secret);
    expect(openSecret(key, "acct_a", "wallet_seed", sealed)).toEqual(secret);
  });

  it("never stores the secret's bytes and never seals twice alike (fresh nonce)", () => {
    const a = sealSecret(key, "acct_a", "wallet_seed", secret);
    const b = sealSecret(key, "acct_a", "wallet_seed", secret);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64").includes(Buffer.from(secret))).toBe(false);
  });

  it("refuses a sealed secret moved to another account or kind", () => {
    const sealed = sealSecret(key, "acct_a", "wallet_seed", secret);
    expect(() => openSecret(key, "acct_b", "wallet_seed", sealed)).toThrow(VaultError);
    expect(() => openSecret(key, "acct_a", "confidential_secret", sealed)).toThrow(VaultError);
  });

  it("refuses another master key and any altered byte", () => {
    const sealed = sealSecret(key, "acct_a", "wallet_seed", secret);
    const other = parseMasterKey(generateMasterKeyHex());
    expect(() => openSecret(other, "acct_a", "wallet_seed", sealed)).toThrow(VaultError);
    const bytes = Buffer.from(sealed, "base64");
    for (const index of [0, 1, 13, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[index] = (altered[index] as number) ^ 1;
      expect(() => openSecret(key, "acct_a", "wallet_seed", altered.toString("base64"))).toThrow(VaultError);
    }
  });

  it("accepts a master key as 64 hex characters or base64 of 32 bytes, and nothing else", () => {
    const hex = generateMasterKeyHex();
    expect(parseMasterKey(hex).id).toBe(parseMasterKey(Buffer.from(hex, "hex").toString("base64")).id);
    for (const bad of ["", "abc", "00".repeat(31), "zz".repeat(32), Buffer.alloc(31).toString("base64")]) {
      expect(() => parseMasterKey(bad)).toThrow(VaultError);
    }
  });
});
