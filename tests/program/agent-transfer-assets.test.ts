/**
 * agent_transfer, the asset rule on the real program: the mint must be one of the policy's allowed
 * mints. A second Token-2022 mint (`OTHER`) stands for any asset the owner did not allow.
 */
import { buildPolicyUpdateInstruction } from "@cpay/sdk";
import { describe, expect, it } from "vitest";
import { policyWorldWithOtherMint } from "../support/other-mint";
import { usdg } from "../support/policy-world";
import { perTestCase } from "../support/shared-set-up";

describe("agent_transfer: allowed mints", () => {
  // Given alice/bot allows USDG only, and holds 100 of another Token-2022 mint too
  const given = perTestCase(policyWorldWithOtherMint);

  it("refuses a mint that is not allowed with MintNotAllowed and moves nothing", async () => {
    const before = given.world.snapshot();
    // When the agent spends 1 OTHER from its OTHER account to bob's
    const outcome = await given.world.transfer({
      amount: usdg(1),
      mint: given.other.mint,
      source: given.other.agentAccount,
      destination: given.other.bobAccount,
    });
    // Then the asset rule refuses it
    expect(outcome.error).toBe("MintNotAllowed");
    expect(outcome.code).toBe(6027);
    expect(given.world.changesSince(before, outcome)).toEqual([]);
  });

  it("follows the allowed list the owner sets: OTHER allowed, USDG no longer", async () => {
    // Given the owner replaces USDG with OTHER in the allowed assets
    const assets = { ...given.world.assets, OTHER: { mint: given.other.mint, decimals: 6 } };
    const update = await buildPolicyUpdateInstruction({
      owner: given.world.agent.owner,
      agent: given.world.agent.address,
      update: { assets: ["OTHER"] },
      assets,
    });
    expect((await given.world.send([update])).err).toBeNull();
    // When the agent spends OTHER, then USDG
    const inOther = await given.world.transfer({
      amount: usdg(1),
      mint: given.other.mint,
      source: given.other.agentAccount,
      destination: given.other.bobAccount,
    });
    const inUsdg = await given.world.transfer({ amount: usdg(1) });
    // Then OTHER moves and USDG is refused
    expect(inOther.err, inOther.logs.join("\n")).toBeNull();
    expect(given.world.balance(given.other.bobAccount)).toBe(usdg(1));
    expect(inUsdg.error).toBe("MintNotAllowed");
  });
});
