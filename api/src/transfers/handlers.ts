/** `/v1/transfers` handlers (spec 4.1-4.3): thin adapters from validated input to the use cases. */
import type { Handlers } from "../http/mount-routes";
import { createTransfer } from "./create-transfer";
import { getTransfer } from "./get-transfer";
import { listTransfers } from "./list-transfers";

export const transferHandlers: Pick<Handlers, "createTransfer" | "getTransfer" | "listTransfers"> = {
  createTransfer: ({ service, caller, body, idempotency }) =>
    createTransfer(service, { caller, body, idempotency }),
  getTransfer: ({ service, caller, params }) => getTransfer(service, caller.account, params.transfer_id),
  listTransfers: ({ service, caller, query }) => listTransfers(service, caller.account, query),
};
