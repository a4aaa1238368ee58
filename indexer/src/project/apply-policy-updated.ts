/**
 * A spend policy changed on chain (`PolicyUpdated`): `agent.policy.updated` for the agent's owner,
 * keyed by the transaction's signature exactly as the API keys the update it makes, so a change
 * made through the API fires once and one made any other way fires too.
 */
import { accountByAddress, policyUpdatedFact, recordEvent } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import type { ApplyContext } from "./apply-context";
import type { PolicyUpdatedFact } from "./observed-fact";

/** Applies the fact; returns the agent's account id, or null when it is not a service account. */
export async function applyPolicyUpdated(
  ctx: ApplyContext,
  tx: Db,
  fact: PolicyUpdatedFact,
): Promise<string | null> {
  const agent = await accountByAddress(ctx, tx, fact.agent);
  if (agent === undefined) return null;
  await recordEvent(ctx, tx, policyUpdatedFact(agent, fact.position.signature));
  return agent.id;
}
