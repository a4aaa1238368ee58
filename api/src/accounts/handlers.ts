/** `/v1/accounts/me` handlers (spec 4.9, 4.10). */
import type { Handlers } from "../http/mount-routes";
import { accountView } from "./account-view";
import { requireKyc } from "./require-kyc";

export const accountHandlers: Pick<Handlers, "getMe" | "getBalances"> = {
  getMe: async ({ service, caller }) => {
    await requireKyc(service, caller.account);
    return accountView(caller.account);
  },
  getBalances: async () => {
    throw new Error("not implemented yet");
  },
};
