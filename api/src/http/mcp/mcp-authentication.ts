/**
 * Who calls `/mcp`: the bearer is an API key, looked up exactly as for `/v1` (authenticate.ts: one
 * account, its environment; a revocation counts from the very next request), under the same
 * failed-authentication budget per client address. Only the `Authorization` header is read: a
 * dashboard session's cookie is not a credential here. A missing, malformed, unknown or revoked key
 * is `401` with the `WWW-Authenticate: Bearer` challenge MCP clients read (RFC 6750: an
 * `invalid_token` error when a key was given, none when there was no credential at all).
 *
 * A key the `/v1` door refuses otherwise (a `svc_live_` key while no live environment is
 * configured: `live_mode_unavailable`) is no `401`: the session is served, and every tool answers
 * that refusal as a tool error, which a model can read and report.
 */
import type { Request } from "express";
import { ApiError } from "../../core/api-error";
import type { ServiceContext } from "../../core/service-context";
import type { AuthFailureLimiter } from "../auth-failure-limit";
import { authenticate, type Caller } from "../authenticate";
import { authenticateLimited } from "../limited-authentication";

const REALM = 'Bearer realm="cpay"';

/** The caller, or the refusal every tool of its session answers with; throws `401` (or `429`). */
export async function authenticateMcp(
  service: ServiceContext,
  limiter: AuthFailureLimiter,
  request: Request,
): Promise<Caller | ApiError> {
  const header = request.get("authorization");
  try {
    return await authenticateLimited(limiter, request, () => authenticate(service, header));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "unauthorized") throw withChallenge(error, header === undefined || header === "");
    if (error.code === "rate_limited") throw error;
    return error;
  }
}

function withChallenge(error: ApiError, noCredential: boolean): ApiError {
  const challenge = noCredential
    ? REALM
    : `${REALM}, error="invalid_token", error_description="${error.message.replace(/["\\]/g, "")}"`;
  return new ApiError(error.code, error.message, error.param, {
    ...error.headers,
    "WWW-Authenticate": challenge,
  });
}
