/**
 * The assertion the program suites' attacks end with: the program refused what `run` sent with
 * `error`, and nothing changed (`PolicyWorld.attempt`: every balance and every byte of the
 * program's accounts and of `extra`, the payer's fee aside).
 */
import { expect } from "vitest";
import type { Outcome } from "./cluster-send";
import type { PolicyWorld } from "./policy-world";

export async function expectRefusedUnchanged(
  world: PolicyWorld,
  error: string,
  run: () => Promise<Outcome>,
  options?: Parameters<PolicyWorld["attempt"]>[1],
): Promise<void> {
  const { outcome, changes } = await world.attempt(run, options);
  expect(outcome.error).toBe(error);
  expect(changes).toEqual([]);
}
