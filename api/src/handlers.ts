/** Every `/v1` handler, by route id (the route table is `API_ROUTES` in `@cpay/sdk/api`). */
import { accountHandlers } from "./accounts/handlers";
import { agentHandlers } from "./agents/handlers";
import { approvalHandlers } from "./approvals/handlers";
import { dashboardHandlers } from "./dashboard-auth/handlers";
import type { Handlers } from "./http/mount-routes";
import { keyHandlers } from "./keys/handlers";
import { relayHandlers } from "./relay/handlers";
import { transferHandlers } from "./transfers/handlers";
import { webhookHandlers } from "./webhooks/handlers";

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
