/**
 * Balance decryption proofs against the on-chain ciphertext: a correct proof returns the amount;
 * a wrong amount, another key, another ciphertext, a stale balance, or garbage is rejected with
 * the typed `decryption_proof_invalid`.
 */

import {
  createBalanceProof,
  deriveConfidentialKeys,
  generateConfidentialSecret,
  isConfidentialError,
  transferConfidential,
  verifyBalanceProofOnChain,
} from "@cpay/sdk/confidential";
import { beforeAll, describe, expect, it } from "vitest";
import { confidentialStateOf, fundConfidential, type Party, twoPartiesSuite } from "./support";

const BALANCE = 73_000_019n;
const given = twoPartiesSuite("holder", "other");

beforeAll(async () => {
  await fundConfidential(given.cluster, given.holder, BALANCE);
  await fundConfidential(given.cluster, given.other, 5n);
});

const ciphertextOf = (party: Party) => {
  const state = confidentialStateOf(given.cluster, party.tokenAccount);
  if (state === null) throw new Error("not configured");
  return state.availableBalance;
};
/** `party`'s proof, made by the SDK with its own keys, that its available balance is `amount`. */
const proofOf = (party: Party, amount: bigint) =>
  createBalanceProof({ keys: party.keys, availableCiphertext: ciphertextOf(party), amount });
const rejected = async (proof: string, account = given.holder.tokenAccount) => {
  try {
    await verifyBalanceProofOnChain(given.chain, account, proof);
    return false;
  } catch (error) {
    return isConfidentialError(error, "decryption_proof_invalid");
  }
};
const flip = (proof: string, index: number) => {
  const bytes = Buffer.from(proof, "base64");
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return bytes.toString("base64");
};

describe("balance decryption proof", () => {
  it("Given the holder proves its balance, when the service verifies it against the chain, then it gets the amount", async () => {
    const proof = proofOf(given.holder, BALANCE);
    expect(Buffer.from(proof, "base64")).toHaveLength(201);
    expect(await verifyBalanceProofOnChain(given.chain, given.holder.tokenAccount, proof)).toBe(BALANCE);
  });

  it("Given a wrong amount, then the holder cannot even make the proof", async () => {
    expect(() => proofOf(given.holder, BALANCE + 1n)).toThrow(
      expect.objectContaining({ code: "decryption_proof_invalid" }),
    );
  });

  it("Given a correct proof whose stated amount was edited, then it is rejected", async () => {
    const proof = proofOf(given.holder, BALANCE);
    expect(await rejected(flip(proof, 1))).toBe(true);
  });

  it("Given a valid proof made with another key, then it is rejected, also with this account's key pasted in", async () => {
    const stranger = deriveConfidentialKeys(generateConfidentialSecret());
    const strangerCiphertext = stranger.elgamal.pubkey().encryptU64(BALANCE).toBytes();
    const proof = createBalanceProof({
      keys: stranger,
      availableCiphertext: strangerCiphertext,
      amount: BALANCE,
    });
    expect(await rejected(proof)).toBe(true);
    const pasted = Buffer.from(proof, "base64");
    pasted.set(given.holder.keys.elgamalPubkey, 9);
    pasted.set(Buffer.from(proofOf(given.holder, BALANCE), "base64").subarray(41, 105), 41);
    expect(await rejected(pasted.toString("base64"))).toBe(true);
  });

  it("Given a proof made for another account's ciphertext, then it is rejected for this account", async () => {
    const proof = proofOf(given.other, 5n);
    expect(await verifyBalanceProofOnChain(given.chain, given.other.tokenAccount, proof)).toBe(5n);
    expect(await rejected(proof, given.holder.tokenAccount)).toBe(true);
  });

  it("Given a proof whose zero-ciphertext proof bytes were altered, then it is rejected", async () => {
    const proof = proofOf(given.holder, BALANCE);
    expect(await rejected(flip(proof, 150))).toBe(true);
    expect(await rejected(flip(proof, 200))).toBe(true);
  });

  it("Given garbage, truncated, non-canonical or wrong-version input, then it is rejected", async () => {
    const proof = proofOf(given.holder, BALANCE);
    for (const garbage of [
      "",
      "not base64!",
      "AAAA",
      proof.slice(0, -4),
      `${proof}AAAA`,
      ` ${proof}`,
      flip(proof, 0),
    ]) {
      expect(await rejected(garbage)).toBe(true);
    }
  });

  it("Given the balance changed after the proof was made, then the stale proof is rejected", async () => {
    const proof = proofOf(given.holder, BALANCE);
    await transferConfidential(given.chain, {
      owner: given.holder.wallet,
      keys: given.holder.keys,
      mint: given.cluster.usdgMint,
      recipient: given.other.wallet.address,
      amount: 1n,
    });
    expect(await rejected(proof)).toBe(true);
    const fresh = proofOf(given.holder, BALANCE - 1n);
    expect(await verifyBalanceProofOnChain(given.chain, given.holder.tokenAccount, fresh)).toBe(BALANCE - 1n);
  });
});
