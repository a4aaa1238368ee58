/** Agent accounts and spend policies (spec 4.4-4.6, 4.11): thin handlers over the use cases. */
import type { Handlers } from "../http/mount-routes";
import { listAgentsOf, loadOwnedAgent } from "./agent-lookup";
import { agentView } from "./agent-view";
import { createAgent } from "./create-agent";
import { readAgentBudget } from "./read-agent-budget";
import { readSpendPolicy } from "./read-spend-policy";
import { updateSpendPolicy } from "./update-spend-policy";

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
