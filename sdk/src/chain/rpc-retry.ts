/**
 * Retrying what a busy RPC endpoint refuses for now: HTTP 429 and 5xx (ChainUnavailable from
 * rpc-transport.ts, with the status) and JSON-RPC -32016 (the node has not reached the request's
 * `minContextSlot` yet: it lags behind what this client already saw). Each attempt repeats the same
 * request: for `sendTransaction` that is the same signed bytes, so the same signature, and a
 * transaction can land once at most however often it is handed over.
 *
 * Exponential backoff with full jitter (a random wait in [0, min(cap, base * 2^attempt)]: clients
 * refused together do not come back together), never shorter than a `Retry-After` the endpoint
 * sent, within `budgetMs` of the first attempt; then the last failure is thrown, as ChainUnavailable.
 * Timeouts and refused connections are not retried here: they already cost their time, and a node
 * that is down must be answered `503 chain_unavailable` promptly.
 */
import { ChainUnavailable } from "./chain-types";
import { RpcResponseError } from "./rpc-errors";

export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

/** The endpoint answered HTTP 429 or 5xx: it is there, and asks to be asked again later. */
export class EndpointBusy extends ChainUnavailable {
  constructor(
    message: string,
    /** The endpoint's `Retry-After` in ms (0 when it sent none). */
    readonly retryAfterMs: number,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface RetryOptions {
  /** Longest time from the first attempt to the last; default 10 s. */
  readonly budgetMs?: number;
  /** First backoff ceiling; default 100 ms. */
  readonly baseMs?: number;
  /** Largest backoff ceiling; default 2 s. */
  readonly capMs?: number;
  /** A number in [0, 1) (tests pin it). */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY_BUDGET_MS = 10_000;
const BASE_MS = 100;
const CAP_MS = 2_000;

/** A failure worth retrying with the same request: the milliseconds the endpoint asked for (0: none), or null. */
export function retryableFailure(error: unknown): number | null {
  if (error instanceof EndpointBusy) return error.retryAfterMs;
  if (error instanceof RpcResponseError && error.code === MIN_CONTEXT_SLOT_NOT_REACHED) return 0;
  return null;
}

/** Runs `attempt` until it succeeds, fails for good, or the budget is spent (see the module doc). */
export async function withRetry<T>(attempt: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const budgetMs = options.budgetMs ?? DEFAULT_RETRY_BUDGET_MS;
  const baseMs = options.baseMs ?? BASE_MS;
  const capMs = options.capMs ?? CAP_MS;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const asked = retryableFailure(error);
      if (asked === null) throw error;
      const ceiling = Math.min(capMs, baseMs * 2 ** tries);
      const wait = Math.max(asked, Math.floor(random() * ceiling));
      if (Date.now() - started + wait > budgetMs) throw exhausted(error, Date.now() - started);
      await sleep(wait);
    }
  }
}

function exhausted(error: unknown, elapsedMs: number): ChainUnavailable {
  if (error instanceof ChainUnavailable) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ChainUnavailable(`the RPC endpoint stayed behind for ${elapsedMs} ms: ${message}`, {
    cause: error,
  });
}
