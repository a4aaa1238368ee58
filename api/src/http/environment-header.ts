/**
 * The `X-Cpay-Environment` header, as each environment's `/v1` app sees it. The front router has
 * already routed the request (its key, else this header, else its session cookie); here a present
 * header must be `test` or `live` (`400 invalid_request`) and name this app's environment. A `live`
 * header reaching the test app because no live environment is configured is `403
 * live_mode_unavailable`, as a live key is; any other disagreement means the request's API key
 * routed it elsewhere than the header says, and is refused (`400 invalid_request`) before anything
 * is read or written. A session cookie of the other environment is refused alike when the session
 * is authenticated (authenticate-request.ts).
 */
import { ENVIRONMENT_HEADER, environmentOfHeader } from "@cpay/sdk/api";
import type { NextFunction, Request, Response } from "express";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";

/** Middleware for `/v1`: refuses a header that is malformed or names another environment. */
export function checkEnvironmentHeader(service: ServiceContext) {
  return (request: Request, _response: Response, next: NextFunction) => {
    const value = request.get(ENVIRONMENT_HEADER);
    if (value === undefined) return next();
    const named = environmentOfHeader(value);
    if (named === null) {
      throw new ApiError("invalid_request", `${ENVIRONMENT_HEADER} must be test or live`, ENVIRONMENT_HEADER);
    }
    if (named === service.environment) return next();
    if (named === "live" && !service.config.liveModeAvailable) {
      throw new ApiError(
        "live_mode_unavailable",
        "this service has no live environment (mainnet-beta is not configured); use the test environment",
        ENVIRONMENT_HEADER,
      );
    }
    throw new ApiError(
      "invalid_request",
      `${ENVIRONMENT_HEADER} names ${named}, but the Authorization header holds no ${named} API key; send credentials of one environment`,
      ENVIRONMENT_HEADER,
    );
  };
}

/**
 * Refuses a session cookie of another environment than the header names (the router followed the
 * header). Without the header such a cookie is simply unknown here (`401`).
 */
export function checkSessionEnvironment(
  service: ServiceContext,
  request: Request,
  cookieEnvironment: string | null,
): void {
  if (request.get(ENVIRONMENT_HEADER) === undefined) return;
  if (cookieEnvironment === null || cookieEnvironment === service.environment) return;
  throw new ApiError(
    "invalid_request",
    `${ENVIRONMENT_HEADER} names ${service.environment}, but the session cookie is a ${cookieEnvironment} session; sign in to the ${service.environment} environment or send ${cookieEnvironment}`,
    ENVIRONMENT_HEADER,
  );
}
