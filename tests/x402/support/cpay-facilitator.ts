/**
 * cpay's facilitator as a merchant's resource server reaches it: `HTTPFacilitatorClient` on
 * `<service>/v1/x402`, the merchant's API key the bearer of every call (`createAuthHeaders`' per-path
 * form).
 */

import { solanaNetworkOf } from "@cpay/sdk/x402";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentRequirements } from "@x402/core/types";
import type { ApiWorld } from "../../support/api-world";

/** The merchant's key as the bearer of `verify`, `settle` and `supported`. */
export function merchantBearer(apiKey: string) {
  const headers = { Authorization: `Bearer ${apiKey}` };
  return { verify: headers, settle: headers, supported: headers };
}

/** A facilitator client of the service at `serviceUrl`, for the merchant holding `apiKey`. */
export function cpayFacilitator(serviceUrl: string, apiKey: string): HTTPFacilitatorClient {
  return new HTTPFacilitatorClient({
    url: `${serviceUrl}/v1/x402`,
    createAuthHeaders: async () => merchantBearer(apiKey),
  });
}

/**
 * The requirement a merchant's API would answer with on the world's own network: `amount` base units
 * of USDG to `payTo`, the fee reserve `facilitator` announces as `extra.feePayer`.
 */
export async function usdgRequirement(
  world: ApiWorld,
  facilitator: HTTPFacilitatorClient,
  input: { readonly payTo: string; readonly amount: bigint },
): Promise<PaymentRequirements> {
  const network = solanaNetworkOf(world.chain.genesisHash);
  const supported = await facilitator.getSupported();
  return {
    scheme: "exact",
    network,
    asset: world.chain.usdgMint,
    amount: input.amount.toString(),
    payTo: input.payTo,
    maxTimeoutSeconds: 60,
    extra: { feePayer: supported.kinds.find((kind) => kind.network === network)?.extra?.feePayer },
  };
}
