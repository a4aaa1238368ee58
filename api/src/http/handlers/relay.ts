/**
 * The relay for self-custody agents: thin handlers over relay-info and relay-transactions. The door
 * counts each relay request against the agent's own budget (`RELAY_RATE_LIMIT_PER_MINUTE`, beside
 * the per-key limit every route has) before the use case runs, with the same `RateLimit-*` headers.
 */
import type { ServiceContext } from "../../core/service-context";
import { relayInfo } from "../../relay/relay-info";
import { relayTransactions } from "../../relay/relay-transactions";
import { keyIdOf } from "../authenticate";
import type { Handlers } from "../mount-routes";
import { createRateLimiter, type RateLimiter } from "../rate-limit";

const limiters = new WeakMap<ServiceContext, RateLimiter>();

function relayLimiter(service: ServiceContext): RateLimiter {
  let limiter = limiters.get(service);
  if (limiter === undefined) {
    limiter = createRateLimiter(service.db, service.config.relayRateLimitPerMinute, { namespace: "relay" });
    limiters.set(service, limiter);
  }
  return limiter;
}

export const relayHandlers: Pick<Handlers, "getRelayInfo" | "relayTransactions"> = {
  getRelayInfo: async ({ service, caller }) => relayInfo(service, caller.account),
  relayTransactions: async ({ service, caller, body, response }) => {
    const apiKeyId = keyIdOf(caller);
    await relayLimiter(service).take(caller.account.id, response);
    return relayTransactions(
      service,
      { account: caller.account, apiKeyId },
      { transactions: body.transactions, sealedAmount: body.sealed_amount ?? null },
    );
  },
};
