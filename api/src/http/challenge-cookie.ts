/**
 * The cookie that carries a browser's WebAuthn challenge binding (dashboard-auth/challenge-binding.ts
 * says why): read from the request, and set once an options step succeeded, for the challenge's
 * lifetime.
 */
import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { CHALLENGE_TTL_MS } from "../dashboard-auth/challenges";
import { type DashboardSite, siteCookie } from "../dashboard-auth/dashboard-site";
import { cookieOf } from "../dashboard-auth/secret-tokens";

const BINDING = /^[A-Za-z0-9_-]{43}$/;

/** The binding the request's browser holds, or null (none, or not one this service made). */
export function bindingOf(site: DashboardSite, request: Request): string | null {
  const value = cookieOf(request.get("cookie"), site.challengeCookie);
  return value !== null && BINDING.test(value) ? value : null;
}

/**
 * Runs an options step with the browser's binding (a new one when it holds none) and, once the
 * step succeeded, sets the cookie that keeps it for the challenge's lifetime.
 */
export async function withBrowserBinding<T>(
  site: DashboardSite,
  request: Request,
  response: Response,
  step: (binding: string) => Promise<T>,
): Promise<T> {
  const binding = bindingOf(site, request) ?? randomBytes(32).toString("base64url");
  const result = await step(binding);
  response.setHeader("Set-Cookie", siteCookie(site, site.challengeCookie, binding, CHALLENGE_TTL_MS / 1000));
  return result;
}
