/**
 * cpay's facilitator as a merchant's resource server reaches it: `HTTPFacilitatorClient` on
 * `<service>/v1/x402`, the merchant's API key the bearer of every call (`createAuthHeaders`' per-path
 * form).
 */
import { HTTPFacilitatorClient } from "@x402/core/server";

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
