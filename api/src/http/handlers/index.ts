/** Every `/v1` handler, by route id (the route table is `API_ROUTES` in `@cpay/sdk/api`). */

import type { Handlers } from "../mount-routes";
import { accountHandlers } from "./accounts";
import { agentHandlers } from "./agents";
import { approvalHandlers } from "./approvals";
import { dashboardHandlers } from "./dashboard-auth";
import { keyHandlers } from "./keys";
import { relayHandlers } from "./relay";
import { transferHandlers } from "./transfers";
import { webhookHandlers } from "./webhooks";

export const handlers: Handlers = {
  ...transferHandlers,
  ...accountHandlers,
  ...agentHandlers,
  ...approvalHandlers,
  ...webhookHandlers,
  ...relayHandlers,
  ...dashboardHandlers,
  ...keyHandlers,
};
