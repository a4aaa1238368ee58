import { zk } from "@cpay/sdk/confidential";
import { generateKeyPairSigner, getAddressDecoder, none, some } from "@solana/kit";
import { getMintDecoder, getTokenDecoder, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedCluster, type EmbeddedCluster } from "./embedded-cluster";
import { USDG_DECIMALS } from "./usdg-mint";

describe("the USDG mint", () => {
  let cluster: EmbeddedCluster;
  beforeAll(async () => {
    cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null });
  });
  afterAll(() => cluster.stop());

  it("is a Token-2022 mint with 6 decimals and auto-approving confidential transfers, no auditor", () => {
    // Given the mint account at the labelled address
    expect(cluster.usdgMint).toBe("8mZQq32bLyGan896u6frcQiQ2uJCnfRukGFJ3bPWYxg");
    const account = cluster.getAccount(cluster.usdgMint);
    expect(account?.owner).toBe(TOKEN_2022_PROGRAM_ADDRESS);

    // When decoded with the token-2022 client
    const mint = getMintDecoder().decode(account?.data ?? new Uint8Array());

    // Then
    expect(USDG_DECIMALS).toBe(6);
    expect(mint.decimals).toBe(6);
    expect(mint.isInitialized).toBe(true);
    expect(mint.supply).toBe(0n);
    expect(mint.mintAuthority).toEqual(some(cluster.keys.usdgMintAuthority.address));
    expect(mint.freezeAuthority).toEqual(none());
    expect(mint.extensions).toEqual(
      some([
        {
          __kind: "ConfidentialTransferMint",
          authority: some(cluster.keys.usdgMintAuthority.address),
          autoApproveNewAccounts: true,
          auditorElgamalPubkey: none(),
        },
      ]),
    );
  });

  it("was created by a real transaction in history", () => {
    const [creation] = cluster.getSignaturesForAddress(cluster.usdgMint);
    const record = cluster.getTransaction(creation?.signature ?? "");
    expect(record?.err).toBeNull();
    expect(record?.logs).toContain("Program log: Instruction: InitializeMint2");
  });

  it("mints to an owner's associated account, creating it, then tops it up", async () => {
    // Given a wallet without a USDG account
    const owner = (await generateKeyPairSigner()).address;

    // When 25 USDG are minted to it, then 5 more twice in the same slot
    const { tokenAccount } = await cluster.mintUsdgToOwner(owner, 25_000_000n);
    const first = cluster.mintUsdg(tokenAccount, 5_000_000n);
    const second = cluster.mintUsdg(tokenAccount, 5_000_000n);

    // Then the account holds 35 USDG and each mint was its own transaction
    expect(first).not.toBe(second);
    const token = getTokenDecoder().decode(cluster.getAccount(tokenAccount)?.data ?? new Uint8Array());
    expect(token.owner).toBe(owner);
    expect(token.mint).toBe(cluster.usdgMint);
    expect(token.amount).toBe(35_000_000n);
    const mint = getMintDecoder().decode(cluster.getAccount(cluster.usdgMint)?.data ?? new Uint8Array());
    expect(mint.supply).toBe(35_000_000n);
  });
});

describe("a USDG mint made like Paxos' on mainnet", () => {
  it("requires the issuer's approval of each confidential account and carries the auditor key", async () => {
    // Given an auditor's ElGamal key
    const auditor = new zk.ElGamalKeypair().pubkey().toBytes();

    // When a cluster starts with a mint that does not auto-approve and has that auditor
    const cluster = await createEmbeddedCluster({
      slotMs: 0,
      programPath: null,
      usdgMint: { autoApproveNewAccounts: false, auditorElgamalPubkey: auditor },
    });
    try {
      // Then the mint's ConfidentialTransferMint extension says so
      const mint = getMintDecoder().decode(cluster.getAccount(cluster.usdgMint)?.data ?? new Uint8Array());
      expect(mint.extensions).toEqual(
        some([
          {
            __kind: "ConfidentialTransferMint",
            authority: some(cluster.keys.usdgMintAuthority.address),
            autoApproveNewAccounts: false,
            auditorElgamalPubkey: some(getAddressDecoder().decode(auditor)),
          },
        ]),
      );
    } finally {
      cluster.stop();
    }
  });
});
