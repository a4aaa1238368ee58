/**
 * `agent.policy.updated` (spec 6.1), delivered to the agent's owner once per on-chain update: the
 * transaction's signature is the fact, so the API (which made the update) and the indexer (which
 * saw it, however it was made) record it once between them.
 */
import type { AccountRow } from "../db/rows";
import type { EventFact } from "./record-event";

/** `agent`'s spend policy changed in transaction `signature`. */
export function policyUpdatedFact(agent: AccountRow, signature: string): EventFact<"agent.policy.updated"> {
  const policyId = agent.policyId ?? "";
  return {
    type: "agent.policy.updated",
    accountId: agent.ownerAccountId ?? agent.id,
    resourceId: policyId,
    factKey: `agent.policy.updated:${signature}`,
    payload: {
      account: agent.handle,
      agent_account_id: agent.id,
      policy_id: policyId,
      tx_signature: signature,
    },
  };
}
