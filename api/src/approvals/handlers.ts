/** Held agent transactions: list, approve, reject (spec 4.7, 4.8). */
import type { Handlers } from "../http/mount-routes";

export const approvalHandlers: Pick<
  Handlers,
  "listPendingApprovals" | "approveTransaction" | "rejectTransaction"
> = {
  listPendingApprovals: async () => {
    throw new Error("not implemented yet");
  },
  approveTransaction: async () => {
    throw new Error("not implemented yet");
  },
  rejectTransaction: async () => {
    throw new Error("not implemented yet");
  },
};
