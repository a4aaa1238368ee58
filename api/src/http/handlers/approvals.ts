/** Held agent transactions: list, read one, approve, reject (spec 4.7, 4.8): thin handlers over the use cases. */

import { decideHold } from "../../approvals/decide-hold";
import { listPendingApprovals } from "../../approvals/list-pending";
import { loadHeldTransaction } from "../../approvals/load-held-transaction";
import { agentTransactionView } from "../../approvals/transaction-view";
import type { Handlers } from "../mount-routes";

export const approvalHandlers: Pick<
  Handlers,
  "listPendingApprovals" | "getAgentTransaction" | "approveTransaction" | "rejectTransaction"
> = {
  listPendingApprovals: async ({ service, caller }) => listPendingApprovals(service, caller.account),
  getAgentTransaction: async ({ service, caller, params }) => {
    const { row, agent } = await loadHeldTransaction(service, caller.account, params.transaction_id);
    return agentTransactionView(row, agent.handle);
  },
  approveTransaction: async ({ service, caller, params }) => {
    const { row, agent } = await decideHold(service, caller.account, params.transaction_id, "approve");
    return agentTransactionView(row, agent.handle);
  },
  rejectTransaction: async ({ service, caller, params }) => {
    const { row, agent } = await decideHold(service, caller.account, params.transaction_id, "reject");
    return agentTransactionView(row, agent.handle);
  },
};
