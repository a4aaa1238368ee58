/**
 * Held agent transfers for the approval suites, made the way an agent makes them: `POST
 * /v1/transfers` with the agent's own key and an amount above its HITL threshold, which the
 * program holds for the owner. Plus the balance reads the suites compare before and after a
 * decision (public amounts from the token account, confidential ones decrypted with the holder's
 * keys — never through the API).
 */
import type { ConfidentialKeyset } from "@cpay/sdk/confidential";
import { expect } from "vitest";
import type { ApiWorld, WorldAccount } from "../../support/api-world";
import { agentKeysFromOwnerSecret, keysFromSecret } from "../../support/holder-keys";
import { confidentialUsdgOn, publicUsdgOn } from "../../support/usdg-balances";
import { eventsOf, type WorldAgent } from "./agents";

export interface HeldTransfer {
  readonly transferId: string;
  readonly transactionId: string;
  readonly expiresAt: string;
}

/** Has `agent` send `amount` USDG to `to`; the program must hold it (else this throws). */
export async function holdAgentTransfer(
  world: ApiWorld,
  agent: WorldAgent,
  input: { readonly to: string; readonly amount: string; readonly confidential: boolean },
): Promise<HeldTransfer> {
  const created = await world.clientFor(agent.key.value).call("createTransfer", { body: input });
  if (created.approval === null) throw new Error(`the transfer ${created.transfer_id} was not held`);
  return {
    transferId: created.transfer_id,
    transactionId: created.approval.transaction_id,
    expiresAt: created.approval.expires_at,
  };
}

/** The public USDG of the account at `owner` (wallet or agent PDA), 0 without a token account. */
export function publicUsdg(world: ApiWorld, owner: string): Promise<bigint> {
  return publicUsdgOn(world.chain, owner);
}

/** The confidential keys of a world account, from the secret its holder was given. */
export function keysOf(holder: WorldAccount): ConfidentialKeyset {
  return keysFromSecret(holder.confidentialSecret);
}

/** An agent's confidential keys, as its owner derives them from the owner's own secret. */
export function agentKeysOf(owner: WorldAccount, agent: WorldAgent): ConfidentialKeyset {
  return agentKeysFromOwnerSecret(owner.confidentialSecret, agent.agent.handle.slice(1));
}

/** Decrypted confidential balances of the USDG account at `owner`: available and pending credits. */
export function confidentialUsdg(
  world: ApiWorld,
  owner: string,
  keys: ConfidentialKeyset,
): Promise<{ readonly available: bigint; readonly pending: bigint }> {
  return confidentialUsdgOn(world.chain, owner, keys);
}

/**
 * Checks what a confidential hold that ended unexecuted (rejected or expired) leaves: the agent's
 * confidential USDG as it was before (`agentBefore`, read with `agentKeys`), the transfer `failed`
 * with `failureCode` and one `transfer.failed` event, and a next confidential spend of the agent that
 * executes at once, the hold no longer blocking it.
 */
export async function expectHoldReleased(
  world: ApiWorld,
  agent: WorldAgent,
  held: HeldTransfer,
  ended: {
    readonly failureCode: "rejected" | "expired";
    readonly agentKeys: ConfidentialKeyset;
    readonly agentBefore: { readonly available: bigint; readonly pending: bigint };
  },
): Promise<void> {
  expect(await confidentialUsdg(world, agent.agent.public_key, ended.agentKeys)).toEqual(ended.agentBefore);
  await expectFailedOnce(world, held, { failureCode: ended.failureCode });
  const next = await world
    .clientFor(agent.key.value)
    .call("createTransfer", { body: { to: "@bob", amount: "5", confidential: true } });
  expect(next.approval).toBeNull();
}

/** The held transfer ended `failed` (with `ended`'s fields) and `transfer.failed` fired once for it. */
export async function expectFailedOnce(
  world: ApiWorld,
  held: HeldTransfer,
  ended: { readonly failureCode: string; readonly phase?: string },
): Promise<void> {
  expect(await world.transferRow(held.transferId)).toMatchObject({ status: "failed", ...ended });
  expect(await eventsOf(world, "transfer.failed", held.transferId)).toHaveLength(1);
}

/** Polls until a condition holds (tests/support/eventually.ts), e.g. a background job's work. */
export { eventually } from "../../support/eventually";
