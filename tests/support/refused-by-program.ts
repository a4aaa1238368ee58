/**
 * The assertion every attack on the confidential agent path ends with: the program (not the SDK)
 * refused the final instruction with `error`, every context the attempt created is closed again,
 * and nothing moved — the agent's balance ciphertexts and the policy's spend state are byte for
 * byte what they were.
 */
import { agentPolicyErrorOf } from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { expect } from "vitest";
import type { AgentConfidentialWorld } from "./agent-confidential-world";
import { accountBytes } from "./plant-account";

/** Policy bytes 80..96 (day, public spend) and 1288..1420 (the confidential spend state). */
function spendState(world: AgentConfidentialWorld): Uint8Array[] {
  const policy = accountBytes(world.cluster, world.agent.policy);
  return [policy.slice(80, 96), policy.slice(1288, 1420)];
}

export async function expectRefusedByProgram(
  world: AgentConfidentialWorld,
  attempt: () => Promise<unknown>,
  error: string,
): Promise<void> {
  const token = accountBytes(world.cluster, world.agent.usdg);
  const spend = spendState(world);
  const caught = await attempt().then(
    () => new Error("the program accepted it"),
    (thrown: unknown) => thrown,
  );
  if (!isConfidentialError(caught, "step_failed", "transfer")) throw caught;
  expect(agentPolicyErrorOf(caught)?.name).toBe(error);
  if (!isConfidentialError(caught)) throw caught;
  expect(caught.contexts.every((context) => context.outcome === "closed")).toBe(true);
  expect(accountBytes(world.cluster, world.agent.usdg)).toEqual(token);
  expect(spendState(world)).toEqual(spend);
}
