/** The relay for self-custody agents (issue 8): thin handlers over relay-info and relay-transactions. */
import type { Handlers } from "../http/mount-routes";
import { relayInfo } from "./relay-info";
import { relayTransactions } from "./relay-transactions";

export const relayHandlers: Pick<Handlers, "getRelayInfo" | "relayTransactions"> = {
  getRelayInfo: async ({ service, caller }) => relayInfo(service, caller.account),
  relayTransactions: async ({ service, caller, body, request }) =>
    relayTransactions(
      service,
      { account: caller.account, apiKeyId: caller.apiKey.id },
      { transactions: body.transactions, sealedAmount: body.sealed_amount ?? null },
      request.res as never,
    ),
};
