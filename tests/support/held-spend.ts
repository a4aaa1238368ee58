/**
 * A spend of alice/bot's that the program holds for approval (above the HITL threshold), as the
 * hold, approval, expiry and attack suites start from.
 */
import type { Address } from "@solana/kit";
import { expect } from "vitest";
import { type PolicyWorld, type TransferOptions, usdg } from "./policy-world";

/** Sends `spend` (60 USDG to bob unless given), which must be held, and returns its pending account. */
export async function holdSpend(
  world: PolicyWorld,
  spend: TransferOptions = { amount: usdg(60) },
): Promise<Address> {
  const pending = await world.pendingAddress(world.readAgent().nextHoldNonce);
  const held = await world.transfer(spend);
  expect(held.err, held.logs.join("\n")).toBeNull();
  return pending;
}
