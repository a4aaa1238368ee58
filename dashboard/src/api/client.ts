/**
 * The app's one way to the API: same-origin `fetch` of `/v1/...` with the session cookie (HttpOnly:
 * this code never sees it) and, on every request that changes something, the session's CSRF token
 * in `X-CSRF-Token`. An error answer becomes `ApiCallError` carrying the API's own code and message,
 * which the pages show as they are. A 401 means the session is gone: the app returns to sign-in.
 * Every request names its environment in `X-Cpay-Environment` once one is known: the session's,
 * or the one the enrollment and sign-in steps give with the call (the link's, the holder's choice),
 * since they carry no credential the service could route them by.
 */
import { ENVIRONMENT_HEADER, type EnvironmentName } from "@cpay/sdk/environment";
import type { SessionView } from "./types";

export class ApiCallError extends Error {
  override readonly name = "ApiCallError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let environment: EnvironmentName | null = null;
let onSessionLost: (reason: string) => void = () => undefined;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The environment every request names from now on (null: none, the session cookie routes them). */
export function setEnvironment(named: EnvironmentName | null): void {
  environment = named;
}

export function whenSessionLost(callback: (reason: string) => void): void {
  onSessionLost = callback;
}

type Query = Record<string, string | number | undefined>;

export async function api<T>(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  options: {
    body?: unknown;
    query?: Query;
    idempotencyKey?: string;
    quietOn401?: boolean;
    /** The environment this request names, whatever the session's (enrollment and sign-in). */
    environment?: EnvironmentName;
  } = {},
): Promise<T> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== "") search.set(name, String(value));
  }
  const url = search.size === 0 ? path : `${path}?${search}`;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrfToken !== null) headers["X-CSRF-Token"] = csrfToken;
  const named = options.environment ?? environment;
  if (named !== null) headers[ENVIRONMENT_HEADER] = named;
  if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: "same-origin",
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ApiCallError(
      0,
      "network_error",
      "The service could not be reached. Check your connection and retry.",
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; param?: string } } | null)?.error;
    const failure = new ApiCallError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `The service answered ${response.status}.`,
      error?.param,
    );
    if (response.status === 401 && options.quietOn401 !== true) onSessionLost(failure.code);
    throw failure;
  }
  return parsed as T;
}

/** The session's view (GET /v1/dashboard/session), null when signed out. */
export async function currentSession(): Promise<SessionView | null> {
  try {
    return await api<SessionView>("GET", "/v1/dashboard/session", { quietOn401: true });
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 401) return null;
    throw error;
  }
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
