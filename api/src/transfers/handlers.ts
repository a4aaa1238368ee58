/** `/v1/transfers` handlers (spec 4.1-4.3). */
import type { Handlers } from "../http/mount-routes";

export const transferHandlers: Pick<Handlers, "createTransfer" | "getTransfer" | "listTransfers"> = {
  createTransfer: async () => {
    throw new Error("not implemented yet");
  },
  getTransfer: async () => {
    throw new Error("not implemented yet");
  },
  listTransfers: async () => {
    throw new Error("not implemented yet");
  },
};
