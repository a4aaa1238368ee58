/**
 * Authentication under the client address's failed-authentication budget (auth-failure-limit.ts),
 * for every door that takes a credential: a failing credential's `401` counts against the address,
 * and once that budget is spent it is answered `429` instead. A valid credential is never refused
 * by that budget.
 */
import type { Request } from "express";
import { ApiError } from "../core/api-error";
import type { AuthFailureLimiter } from "./auth-failure-limit";
import type { Caller } from "./authenticate";

/** The caller `authenticate` finds; its `401` counted against the request's address. */
export async function authenticateLimited(
  limiter: AuthFailureLimiter,
  request: Request,
  authenticate: () => Promise<Caller>,
): Promise<Caller> {
  try {
    return await authenticate();
  } catch (error) {
    if (error instanceof ApiError && error.code === "unauthorized")
      throw await limiter.refusalOf(clientAddress(request), error);
    throw error;
  }
}

/** The client's address as the app's `trust proxy` setting reads it. */
export function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? "unknown";
}
