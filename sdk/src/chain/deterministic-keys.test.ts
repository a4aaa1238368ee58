import { getBase58Encoder, getUtf8Encoder, signBytes, verifySignature } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { LOCALNET_KEY_LABELS, localnetKey, localnetSeed } from "./deterministic-keys";

describe("labelled localnet keys", () => {
  it("derive the agreed program id and USDG mint from sha256('cpay localnet <label> v1')", () => {
    expect(localnetKey(LOCALNET_KEY_LABELS.agentPolicyProgram).address).toBe(
      "8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf",
    );
    expect(localnetKey(LOCALNET_KEY_LABELS.usdgMint).address).toBe(
      "8mZQq32bLyGan896u6frcQiQ2uJCnfRukGFJ3bPWYxg",
    );
    expect(Buffer.from(localnetSeed("usdg mint")).toString("hex")).toHaveLength(64);
  });

  it("sign synchronously with the same ed25519 signature as kit's signer", async () => {
    // Given a labelled key and a message
    const key = localnetKey("faucet");
    const message = getUtf8Encoder().encode("cpay") as Uint8Array;

    // When signed both ways
    const signer = await key.toSigner();
    const viaKit = await signBytes(signer.keyPair.privateKey, message);
    const viaNode = key.signBytes(message);

    // Then the signatures are equal (ed25519 is deterministic) and verify under the address
    expect(signer.address).toBe(key.address);
    expect(viaNode).toEqual(new Uint8Array(viaKit));
    const publicKey = await crypto.subtle.importKey(
      "raw",
      new Uint8Array(getBase58Encoder().encode(key.address)),
      "Ed25519",
      true,
      ["verify"],
    );
    expect(await verifySignature(publicKey, viaKit, message)).toBe(true);
  });

  it("are distinct per label", () => {
    const addresses = Object.values(LOCALNET_KEY_LABELS).map((label) => localnetKey(label).address);
    expect(new Set(addresses).size).toBe(addresses.length);
  });
});
