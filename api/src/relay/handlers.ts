/** The relay for self-custody agents (issue 8): thin handlers over relay-info and relay-transactions. */
import { keyIdOf } from "../http/authenticate";
import type { Handlers } from "../http/mount-routes";
import { relayInfo } from "./relay-info";
import { relayTransactions } from "./relay-transactions";

export const relayHandlers: Pick<Handlers, "getRelayInfo" | "relayTransactions"> = {
  getRelayInfo: async ({ service, caller }) => relayInfo(service, caller.account),
  relayTransactions: async ({ service, caller, body, request }) =>
    relayTransactions(
      service,
      { account: caller.account, apiKeyId: keyIdOf(caller) },
      { transactions: body.transactions, sealedAmount: body.sealed_amount ?? null },
      request.res as never,
    ),
};
