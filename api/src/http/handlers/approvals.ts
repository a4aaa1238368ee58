/** Holds: list, read one, approve, reject (spec 4.7, 4.8): thin handlers over the use cases. */

import { decideHold } from "../../approvals/decide-hold";
import { holdView } from "../../approvals/hold-view";
import { listPendingApprovals } from "../../approvals/list-pending";
import { loadHold } from "../../approvals/load-hold";
import type { Handlers } from "../mount-routes";

export const approvalHandlers: Pick<
  Handlers,
  "listPendingApprovals" | "getAgentTransaction" | "approveTransaction" | "rejectTransaction"
> = {
  listPendingApprovals: async ({ service, caller }) => listPendingApprovals(service, caller.account),
  getAgentTransaction: async ({ service, caller, params }) => {
    const { row, agent } = await loadHold(service, caller.account, params.transaction_id);
    return holdView(row, agent.handle);
  },
  approveTransaction: async ({ service, caller, params }) => {
    const { row, agent } = await decideHold(service, caller.account, params.transaction_id, "approve");
    return holdView(row, agent.handle);
  },
  rejectTransaction: async ({ service, caller, params }) => {
    const { row, agent } = await decideHold(service, caller.account, params.transaction_id, "reject");
    return holdView(row, agent.handle);
  },
};
