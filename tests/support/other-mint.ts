/**
 * A second Token-2022 mint in a policy world, standing for any asset alice/bot's owner did not
 * allow (the policy allows USDG only): the agent holds 100 of it and bob has an empty account of it.
 */
import type { Address } from "@solana/kit";
import { createPolicyWorld, type PolicyWorld, usdg } from "./policy-world";

export interface OtherMint {
  readonly mint: Address;
  /** The agent's account of the other mint, holding 100. */
  readonly agentAccount: Address;
  /** Bob's account of the other mint, empty. */
  readonly bobAccount: Address;
}

export async function fundOtherMint(world: PolicyWorld): Promise<OtherMint> {
  const other = await world.createMint("other");
  return {
    mint: other.mint,
    agentAccount: await other.fund(world.agent.address, usdg(100)),
    bobAccount: await other.fund(world.recipients.bob.wallet.address, 0n),
  };
}

/** A fresh policy world (createPolicyWorld) in which alice/bot also holds 100 of another mint. */
export async function policyWorldWithOtherMint(): Promise<{
  readonly world: PolicyWorld;
  readonly other: OtherMint;
}> {
  const world = await createPolicyWorld();
  return { world, other: await fundOtherMint(world) };
}
