/** `/v1/transfers` handlers (spec 4.1-4.3): thin adapters from validated input to the use cases. */

import { createTransfer } from "../../transfers/create-transfer";
import { getTransfer } from "../../transfers/get-transfer";
import { listTransfers } from "../../transfers/list-transfers";
import type { Handlers } from "../mount-routes";

export const transferHandlers: Pick<Handlers, "createTransfer" | "getTransfer" | "listTransfers"> = {
  createTransfer: ({ service, caller, body, idempotency }) =>
    createTransfer(service, { caller, body, idempotency }),
  getTransfer: ({ service, caller, params }) => getTransfer(service, caller.account, params.transfer_id),
  listTransfers: ({ service, caller, query }) => listTransfers(service, caller.account, query),
};
