/**
 * agent_transfer, the asset rule on the real program: the mint must be one of the policy's allowed
 * mints. A second Token-2022 mint (`OTHER`) stands for any asset the owner did not allow.
 */
import { buildPolicyUpdateInstruction } from "@cpay/sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { fundOtherMint, type OtherMint } from "../support/other-mint";
import { createPolicyWorld, type PolicyWorld, usdg } from "../support/policy-world";

describe("agent_transfer: allowed mints", () => {
  let world: PolicyWorld;
  let other: OtherMint;

  beforeEach(async () => {
    // Given alice/bot allows USDG only, and holds 100 of another Token-2022 mint too
    world = await createPolicyWorld();
    other = await fundOtherMint(world);
  });

  it("refuses a mint that is not allowed with MintNotAllowed and moves nothing", async () => {
    const before = world.snapshot();
    // When the agent spends 1 OTHER from its OTHER account to bob's
    const outcome = await world.transfer({
      amount: usdg(1),
      mint: other.mint,
      source: other.agentAccount,
      destination: other.bobAccount,
    });
    // Then the asset rule refuses it
    expect(outcome.error).toBe("MintNotAllowed");
    expect(outcome.code).toBe(6027);
    expect(world.changesSince(before, outcome)).toEqual([]);
  });

  it("follows the allowed list the owner sets: OTHER allowed, USDG no longer", async () => {
    // Given the owner replaces USDG with OTHER in the allowed assets
    const assets = { ...world.assets, OTHER: { mint: other.mint, decimals: 6 } };
    const update = await buildPolicyUpdateInstruction({
      owner: world.agent.owner,
      agent: world.agent.address,
      update: { assets: ["OTHER"] },
      assets,
    });
    expect((await world.send([update])).err).toBeNull();
    // When the agent spends OTHER, then USDG
    const inOther = await world.transfer({
      amount: usdg(1),
      mint: other.mint,
      source: other.agentAccount,
      destination: other.bobAccount,
    });
    const inUsdg = await world.transfer({ amount: usdg(1) });
    // Then OTHER moves and USDG is refused
    expect(inOther.err, inOther.logs.join("\n")).toBeNull();
    expect(world.balance(other.bobAccount)).toBe(usdg(1));
    expect(inUsdg.error).toBe("MintNotAllowed");
  });
});
