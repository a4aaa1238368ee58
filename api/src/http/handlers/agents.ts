/** Agent accounts and spend policies (spec 4.4-4.6, 4.11): thin handlers over the use cases. */

import { listAgentsOf, loadOwnedAgent } from "../../agents/agent-lookup";
import { agentView } from "../../agents/agent-view";
import { createAgent } from "../../agents/create-agent";
import { readAgentBudget } from "../../agents/read-agent-budget";
import { readSpendPolicy } from "../../agents/read-spend-policy";
import { updateSpendPolicy } from "../../agents/update-spend-policy";
import type { Handlers } from "../mount-routes";

export const agentHandlers: Pick<
  Handlers,
  "createAgent" | "listAgents" | "getSpendPolicy" | "updateSpendPolicy" | "getAgentBudget"
> = {
  createAgent: async ({ service, caller, body, idempotency }) => {
    const created = await createAgent(service, caller.account, body, { idempotency });
    return { ...agentView(created.agent), signer_secret: created.signerSecret };
  },
  listAgents: async ({ service, caller }) => ({
    agents: (await listAgentsOf(service, caller.account.id)).map(agentView),
  }),
  getSpendPolicy: async ({ service, caller, params }) =>
    readSpendPolicy(service, await loadOwnedAgent(service, caller.account, params.account_id)),
  updateSpendPolicy: async ({ service, caller, params, body }) =>
    updateSpendPolicy(
      service,
      caller.account,
      await loadOwnedAgent(service, caller.account, params.account_id),
      body,
    ),
  getAgentBudget: async ({ service, caller, params }) =>
    readAgentBudget(
      service,
      caller.account,
      await loadOwnedAgent(service, caller.account, params.account_id),
    ),
};
