/**
 * `GET /v1/accounts/me/balances` without a proof (spec 4.10, DESIGN section 6): per asset and
 * balance kind only whether a non-zero balance is held — before funding, after funding, with an
 * incoming credit not applied yet (the read applies it), and after spending everything. No amount
 * appears in any response or log line.
 */
import type { TBalances } from "@cpay/sdk/api";
import { findTokenAccount, zk } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { confidentialStateOn } from "../support/confidential-state";
import { keysFromSecret } from "../support/holder-keys";
import { creditFromOutside } from "./support/outside-credit";

/** A distinctive amount (7.654321 USDG) the plaintext canary looks for. */
const ODD_AMOUNT = 7_654_321n;

function flags(balances: TBalances): Record<string, boolean | undefined> {
  return Object.fromEntries(
    balances.balances.map((entry) => [
      `${entry.asset}${entry.confidential ? " confidential" : ""}`,
      entry.has_balance,
    ]),
  );
}

describe("GET /v1/accounts/me/balances without a proof", () => {
  const given = apiSuite({ accounts: ["alice", "bob"] });

  it("says nothing is held before any funding, in a fixed order of entries", async () => {
    const balances = await given.alice.client.call("getBalances");
    // The confidential entry carries the token account's on-chain ciphertexts (64 and 36 bytes)
    const encrypted = balances.balances[0]?.encrypted;
    expect(Buffer.from(encrypted?.available_balance ?? "", "base64")).toHaveLength(64);
    expect(Buffer.from(encrypted?.decryptable_available_balance ?? "", "base64")).toHaveLength(36);
    expect(balances).toEqual({
      balances: [
        { asset: "USDG", confidential: true, has_balance: false, encrypted },
        { asset: "USDG", confidential: false, has_balance: false },
        { asset: "SOL", confidential: false, has_balance: false },
      ],
    });
  });

  it("reports each funded kind separately, never an amount", async () => {
    // Given alice holds USDG confidentially only
    await given.world.fund(given.alice.account, { confidential: ODD_AMOUNT });
    // Then only the confidential entry is non-zero
    const funded = await given.alice.client.call("getBalances");
    expect(flags(funded)).toEqual({
      "USDG confidential": true,
      USDG: false,
      SOL: false,
    });
    // And its holder (never the response) turns the entry's AE ciphertext into the exact amount
    const ae = keysFromSecret(given.alice.confidentialSecret).ae;
    const ciphertext = funded.balances[0]?.encrypted?.decryptable_available_balance ?? "";
    expect(zk.AeCiphertext.fromBytes(Buffer.from(ciphertext, "base64"))?.decrypt(ae)).toBe(ODD_AMOUNT);
    // And given bob holds public USDG only
    await given.world.fund(given.bob.account, { public: usdg(2) });
    expect(flags(await given.bob.client.call("getBalances"))).toEqual({
      "USDG confidential": false,
      USDG: true,
      SOL: false,
    });
    // The service pays every fee: neither wallet ever holds SOL.
    const response = await given.world.fetch("/v1/accounts/me/balances", { key: given.alice.key.value });
    const text = await response.text();
    expect(text).not.toContain("amount");
    expect(text).not.toMatch(/7\.65|7654321/);
  });

  it("counts an incoming credit that is still pending, and applies it into the available balance", async () => {
    // Given an outside wallet sends carol a confidential transfer (it lands in her pending balance)
    const carol = await given.world.account("carol");
    await creditFromOutside(given.world, carol.account.publicKey, usdg(3));
    const carolUsdg = await findTokenAccount(carol.account.publicKey, given.world.chain.usdgMint);
    expect((await confidentialStateOn(given.world.chain, carolUsdg))?.pendingBalanceCreditCounter).toBe(1n);
    // When carol reads her balances
    const balances = await carol.client.call("getBalances");
    // Then the credit counts, and it was applied: nothing is pending any more
    expect(flags(balances)["USDG confidential"]).toBe(true);
    expect((await confidentialStateOn(given.world.chain, carolUsdg))?.pendingBalanceCreditCounter).toBe(0n);
  });

  it("says nothing is held once everything was spent", async () => {
    // Given dave holds 4 USDG confidentially and 1 publicly
    const dave = await given.world.account("dave");
    await given.world.fund(dave.account, { confidential: usdg(4), public: usdg(1) });
    expect(flags(await dave.client.call("getBalances"))).toEqual({
      "USDG confidential": true,
      USDG: true,
      SOL: false,
    });
    // When he sends all of both to bob
    const confidential = await dave.client.call("createTransfer", { body: { to: "@bob", amount: "4" } });
    const open = await dave.client.call("createTransfer", {
      body: { to: "@bob", amount: "1", confidential: false },
    });
    for (const transfer of [confidential, open]) {
      await expect
        .poll(
          async () =>
            (await dave.client.call("getTransfer", { params: { transfer_id: transfer.transfer_id } })).status,
          {
            timeout: 20_000,
          },
        )
        .toBe("confirmed");
    }
    // Then nothing is held
    expect(flags(await dave.client.call("getBalances"))).toEqual({
      "USDG confidential": false,
      USDG: false,
      SOL: false,
    });
    // And bob, who received both, holds both kinds
    expect(flags(await given.bob.client.call("getBalances"))).toMatchObject({
      "USDG confidential": true,
      USDG: true,
    });
  });

  it("never writes an amount to the log", () => {
    const log = given.world.logs.join("\n");
    expect(log).not.toContain(String(ODD_AMOUNT));
    expect(log).not.toContain("7.654321");
  });
});
