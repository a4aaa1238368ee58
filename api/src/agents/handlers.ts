/** Agent accounts and spend policies (spec 4.4-4.6, 4.11). */
import type { Handlers } from "../http/mount-routes";

export const agentHandlers: Pick<
  Handlers,
  "createAgent" | "listAgents" | "getSpendPolicy" | "updateSpendPolicy"
> = {
  createAgent: async () => {
    throw new Error("not implemented yet");
  },
  listAgents: async () => {
    throw new Error("not implemented yet");
  },
  getSpendPolicy: async () => {
    throw new Error("not implemented yet");
  },
  updateSpendPolicy: async () => {
    throw new Error("not implemented yet");
  },
};
