/**
 * The browser's zk-sdk (web build) against the SDK's Node code: the balance proof the page builds is
 * one the API's verifier accepts, and an API key's encrypted total reads back as the SDK summed it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  addToEncryptedTotal,
  deriveConfidentialKeys,
  emptyEncryptedTotal,
  verifyBalanceProof,
} from "@cpay/sdk/confidential";
import { deriveViewingKeys } from "@cpay/sdk/sealed";
import { beforeAll, describe, expect, it } from "vitest";
import { bytesToBase64 } from "../lib/base64";
import { decryptEncryptedTotal, loadZkSdk, proveBalance } from "./zk";

const webBuild = join(createRequire(import.meta.url).resolve("@solana/zk-sdk/web"), "..", "index_bg.wasm");

function secret(fill: number): Uint8Array {
  return new Uint8Array(32).map((_, i) => (fill + i * 7) & 0xff);
}

describe("the dashboard's zk-sdk (web build)", () => {
  beforeAll(async () => {
    await loadZkSdk(readFileSync(webBuild));
  });

  it("builds a balance proof the API's verifier accepts, for the exact on-chain amount", async () => {
    const holder = deriveConfidentialKeys(secret(1));
    const amount = 987_654_321n;
    const available = holder.elgamal.pubkey().encryptU64(amount).toBytes();
    const decryptable = holder.ae.encrypt(amount).toBytes();
    const proven = await proveBalance(deriveViewingKeys(secret(1)), available, decryptable);
    expect(proven.kind).toBe("proven");
    if (proven.kind !== "proven") return;
    expect(proven.amount).toBe(amount);
    const verified = verifyBalanceProof({
      proof: bytesToBase64(proven.proof),
      elgamalPubkey: holder.elgamalPubkey,
      availableCiphertext: available,
    });
    expect(verified).toBe(amount);
  });

  it("reads nothing with another account's keys, and proves nothing when the AE copy lags the chain", async () => {
    const holder = deriveConfidentialKeys(secret(1));
    const available = holder.elgamal.pubkey().encryptU64(500n).toBytes();
    const decryptable = holder.ae.encrypt(500n).toBytes();
    expect((await proveBalance(deriveViewingKeys(secret(2)), available, decryptable)).kind).toBe(
      "undecryptable",
    );
    const stale = holder.ae.encrypt(400n).toBytes();
    expect(await proveBalance(deriveViewingKeys(secret(1)), available, stale)).toEqual({
      kind: "unproven",
      amount: 400n,
    });
  });

  it("decrypts an API key's encrypted total as the SDK summed it", async () => {
    const holder = deriveConfidentialKeys(secret(3));
    let total = emptyEncryptedTotal();
    for (const amount of [12_500_000n, 70_000n, 3_000_000_001n]) {
      total = addToEncryptedTotal(total, holder.elgamalPubkey, amount);
    }
    expect(await decryptEncryptedTotal(deriveViewingKeys(secret(3)), total)).toBe(3_012_570_001n);
    expect(await decryptEncryptedTotal(deriveViewingKeys(secret(3)), emptyEncryptedTotal())).toBe(0n);
  });
});
