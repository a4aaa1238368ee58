/**
 * kit's HTTP transport with the two things the chain port needs at the wire:
 *
 * - a transport failure (connection refused or reset, DNS, no answer within `timeoutMs`, HTTP 5xx
 *   or 429, a body that is not JSON) becomes `ChainUnavailable`, the one error callers map to
 *   "try again later"; HTTP 429/5xx as its `EndpointBusy` kind, which rpc-retry.ts retries;
 * - a JSON-RPC error answer is thrown as `RpcResponseError` with the node's own code, message and
 *   `data` (as plain JSON), before kit turns it into a SolanaError: kit keeps a preflight failure's
 *   `data.err` only as a nested error object, and the port must hand back Solana's error JSON.
 */
import {
  createDefaultRpcTransport,
  isSolanaError,
  type RpcTransport,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from "@solana/kit";
import { ChainUnavailable } from "./chain-types";
import { RpcResponseError } from "./rpc-errors";
import { toPlainJson } from "./rpc-normalize";
import { EndpointBusy, type RetryOptions, withRetry } from "./rpc-retry";

/** HTTP statuses that say "this endpoint cannot serve now", not "this request is wrong". */
function isUnavailableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/** `Retry-After` in seconds (the HTTP-date form is not used by RPC providers), capped at 10 s. */
function retryAfterMsOf(headers: unknown): number {
  const value = headers instanceof Headers ? headers.get("retry-after") : null;
  const seconds = value === null ? Number.NaN : Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) * 1000 : 0;
}

/** The failure as ChainUnavailable when it is the transport's, else unchanged. */
function transportFailure(error: unknown, timedOut: boolean): unknown {
  if (timedOut) return new ChainUnavailable("the RPC endpoint did not answer in time", { cause: error });
  if (isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
    const status = error.context.statusCode;
    return isUnavailableStatus(status)
      ? new EndpointBusy(
          `the RPC endpoint answered HTTP ${status}`,
          retryAfterMsOf((error.context as { headers?: unknown }).headers),
          { cause: error },
        )
      : error;
  }
  // fetch rejects with a TypeError for every network failure (the reason is in `cause`), and a
  // body that does not parse is a SyntaxError: neither is an answer from a Solana node.
  if (error instanceof TypeError || error instanceof SyntaxError) {
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    return new ChainUnavailable(`the RPC endpoint is unreachable: ${reason}`, { cause: error });
  }
  return error;
}

function errorMember(response: unknown): { code: unknown; message: unknown; data?: unknown } | null {
  if (response === null || typeof response !== "object" || !("error" in response)) return null;
  const error = (response as { error: unknown }).error;
  return error !== null && typeof error === "object" ? (error as { code: unknown; message: unknown }) : null;
}

/**
 * A transport to `url` (see the module doc); `timeoutMs` bounds each attempt, and a busy or lagging
 * endpoint is asked again with the same request within `retry`'s budget (rpc-retry.ts).
 */
export function createChainTransport(url: string, timeoutMs: number, retry: RetryOptions = {}): RpcTransport {
  const attempt = createAttempt(url, timeoutMs);
  return <TResponse>(request: { readonly payload: unknown; readonly signal?: AbortSignal }) =>
    withRetry(() => attempt<TResponse>(request), retry);
}

function createAttempt(url: string, timeoutMs: number) {
  const inner = createDefaultRpcTransport({ url });
  return async <TResponse>(request: { readonly payload: unknown; readonly signal?: AbortSignal }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
    let response: TResponse;
    try {
      response = await inner<TResponse>({ payload: request.payload, signal });
    } catch (error) {
      throw transportFailure(error, timeout.aborted);
    }
    const failure = errorMember(response);
    if (failure !== null) {
      throw new RpcResponseError(
        Number(failure.code),
        typeof failure.message === "string" ? failure.message : "JSON-RPC error",
        toPlainJson(failure.data),
      );
    }
    return response;
  };
}
