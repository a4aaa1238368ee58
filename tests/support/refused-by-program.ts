/**
 * The assertion every attack on the confidential agent path ends with: the program (not the SDK)
 * refused the final instruction with `error`, every context the attempt created is closed again
 * (no staging buffer left either), and nothing moved — every account of the world (wallets,
 * handles, token accounts, agents, policies, holds: every account the program owns) is byte for
 * byte and lamport for lamport what it was, except the fee payer's lamports (fees).
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import { agentPolicyErrorOf } from "@cpay/sdk/agent-confidential";
import { isConfidentialError } from "@cpay/sdk/confidential";
import { expect } from "vitest";
import { type Snapshot, snapshotAccounts, snapshotDifferences } from "./account-snapshot";
import type { AgentConfidentialWorld } from "./agent-confidential-world";
import { DAILY_LIMIT } from "./policy-world";

/** Every account of the world but the fee payer (it pays the attempt's fees). */
function worldState(world: AgentConfidentialWorld): Snapshot {
  const watched = world.addresses().filter((address) => address !== world.feePayer.address);
  return snapshotAccounts(world.cluster, watched);
}

/** Loader-owned accounts: a staging buffer left behind would show up here. */
function loaderAccounts(world: AgentConfidentialWorld): number {
  return world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS).length;
}

/** What `run` changed in the world (every account but the fee payer's lamports, see the file doc). */
export async function worldChangesBy(
  world: AgentConfidentialWorld,
  run: () => Promise<unknown>,
): Promise<string[]> {
  const before = worldState(world);
  await run();
  return snapshotDifferences(before, worldState(world));
}

/** Runs an SDK transfer `attempt` and asserts the program refused it with `error` (see the file doc). */
export async function expectRefusedByProgram(
  world: AgentConfidentialWorld,
  attempt: () => Promise<unknown>,
  error: string,
  options: {
    /** Accounts the attack itself plants during `attempt` (e.g. a look-alike the program owns). */
    readonly planted?: () => readonly string[];
  } = {},
): Promise<void> {
  const before = worldState(world);
  const loaderBefore = loaderAccounts(world);
  const caught = await attempt().then(
    () => new Error("the program accepted it"),
    (thrown: unknown) => thrown,
  );
  if (!isConfidentialError(caught, "step_failed", "transfer")) throw caught;
  expect(agentPolicyErrorOf(caught)?.name).toBe(error);
  if (!isConfidentialError(caught)) throw caught;
  expect(caught.contexts.map((context) => context.outcome)).toEqual(Array(6).fill("closed"));
  for (const context of caught.contexts) expect(world.cluster.getAccount(context.address)).toBeNull();
  expect(loaderAccounts(world)).toBe(loaderBefore);
  const planted = new Set(options.planted?.() ?? []);
  const changes = snapshotDifferences(before, worldState(world)).filter(
    (change) => !planted.has(change.split(":")[0] ?? ""),
  );
  expect(changes).toEqual([]);
}

/**
 * The forged daily limit: a confidential spend of `amount` proved against a daily limit one unit
 * above the policy's, which the program refuses (LimitProofMismatch) with nothing changed.
 */
export function expectForgedDailyLimitRefused(world: AgentConfidentialWorld, amount: bigint): Promise<void> {
  return expectRefusedByProgram(
    world,
    () => world.confidentialTransfer({ amount, unsafeForgedLimits: { dailyLimit: DAILY_LIMIT + 1n } }),
    "LimitProofMismatch",
  );
}
