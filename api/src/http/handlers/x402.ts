/**
 * The x402 facilitator door, beside `/v1`'s routes (one app per environment; the front router sends
 * a `svc_live_` bearer to the live one): `GET /v1/x402/supported`, `POST /v1/x402/verify`, `POST
 * /v1/x402/settle`, the paths x402 v2's `HTTPFacilitatorClient` calls under the URL it is given
 * (`https://<service>/v1/x402`). The merchant's API key is the bearer (the client's
 * `createAuthHeaders`), authenticated and rate limited exactly as on `/v1` (one budget per key, the
 * failed-authentication budget per address), its usage counted. A settle spends the fee reserve
 * for the key's account (an agent's owner), bounded by its reserve budget.
 *
 * Auth, rate limits and a body that is not the facilitator's (`400 invalid_request`) are answered in
 * the service's error envelope; a payment refused is answered `200` in x402's own shape
 * (`isValid: false` / `success: false`, api/src/x402/x402-refusal.ts), as a facilitator answers it.
 */
import type { Express, Request, Response } from "express";
import { ApiError } from "../../core/api-error";
import { withReserveSpend } from "../../reserve/reserve-scope";
import { settleMerchantPayment } from "../../x402/settle-merchant-payment";
import { supportedKinds } from "../../x402/supported-kinds";
import { verifyMerchantPayment } from "../../x402/verify-merchant-payment";
import { type TX402FacilitatorRequest, ZX402FacilitatorRequest } from "../../x402/x402-contracts";
import type { AuthFailureLimiter } from "../auth-failure-limit";
import { authenticate, type Caller } from "../authenticate";
import { authenticateLimited } from "../limited-authentication";
import { parseRequestPart, type RouteServing, reserveAccountOf } from "../serve-route";
import { countRequest } from "../usage-stamps";

export const X402_PATH = "/v1/x402";

type Serving = RouteServing & { readonly authFailureLimiter: AuthFailureLimiter };

export function mountX402(app: Express, serving: Serving): void {
  const { service } = serving;
  app.get(`${X402_PATH}/supported`, async (request: Request, response: Response) => {
    await callerOf(serving, request, response);
    response.json(supportedKinds(service));
  });
  app.post(`${X402_PATH}/verify`, async (request: Request, response: Response) => {
    const caller = await callerOf(serving, request, response);
    response.json(await verifyMerchantPayment(service, caller.account, bodyOf(request)));
  });
  app.post(`${X402_PATH}/settle`, async (request: Request, response: Response) => {
    const caller = await callerOf(serving, request, response);
    const body = bodyOf(request);
    response.json(
      await withReserveSpend(service, reserveAccountOf(caller), () =>
        settleMerchantPayment(service, caller.account, body),
      ),
    );
  });
  for (const [path, allow] of [
    ["supported", "GET"],
    ["verify", "POST"],
    ["settle", "POST"],
  ] as const) {
    app.all(`${X402_PATH}/${path}`, () => {
      throw new ApiError("method_not_allowed", "this route does not accept that method", undefined, {
        Allow: allow,
      });
    });
  }
}

/** The key's caller, counted against its rate limit (and its usage: every answer is a 2xx). */
async function callerOf(serving: Serving, request: Request, response: Response): Promise<Caller> {
  const caller = await authenticateLimited(serving.authFailureLimiter, request, () =>
    authenticate(serving.service, request.get("authorization")),
  );
  response.locals.accountId = caller.account.id;
  const keyId = caller.apiKey?.id as string;
  await serving.rateLimiter.take(keyId, response);
  response.setHeader("Cache-Control", "no-store");
  response.on("finish", () => {
    if (response.statusCode >= 200 && response.statusCode < 300) countRequest(serving.service.db, keyId);
  });
  return caller;
}

function bodyOf(request: Request): TX402FacilitatorRequest {
  return parseRequestPart(ZX402FacilitatorRequest, request.body ?? {}, "body") as TX402FacilitatorRequest;
}
