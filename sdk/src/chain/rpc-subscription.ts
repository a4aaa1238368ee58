/**
 * A PubSub subscription kept open: when the socket drops or the node ends the subscription, it is
 * opened again with backoff (250 ms doubling to 5 s, reset once a subscription is accepted again),
 * so a live hint survives a restarted node; missed notifications are the poll's to find, as hints
 * always are. Only a subscription the node refuses outright (a JSON-RPC error answer: unknown
 * method, bad params) has failed for good: retrying would be refused the same way.
 */
import { isSolanaError } from "@solana/kit";

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

export interface FollowOptions<T> {
  /** Opens the subscription (kit's `.subscribe({ abortSignal })`). */
  readonly open: (signal: AbortSignal) => Promise<AsyncIterable<T>>;
  readonly onNotification: (notification: T) => void;
  /** The subscription failed for good (see the module doc); nothing more is tried. */
  readonly onError: (error: unknown) => void;
  /** The subscription dropped and is being opened again, or a listener threw. */
  readonly onWarning: (error: unknown) => void;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** A JSON-RPC error answer to the subscribe request (kit keeps the server's negative code). */
function isRefusal(error: unknown): boolean {
  return isSolanaError(error) && (error.context as { __code: number }).__code < 0;
}

/** Calls `report` without letting a throwing handler end the loop. */
function safely(report: (error: unknown) => void, error: unknown): void {
  try {
    report(error);
  } catch {
    // A failing error handler must not turn into an unhandled rejection of the loop.
  }
}

/** Follows until `signal` aborts; resolves when the loop has returned. */
export async function followSubscription<T>(options: FollowOptions<T>, signal: AbortSignal): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  while (!signal.aborted) {
    try {
      const notifications = await options.open(signal);
      retryMs = FIRST_RETRY_MS;
      for await (const notification of notifications) {
        if (signal.aborted) return;
        try {
          options.onNotification(notification);
        } catch (error) {
          safely(options.onWarning, error);
        }
      }
      if (signal.aborted) return;
      safely(options.onWarning, new Error("the subscription ended; subscribing again"));
    } catch (error) {
      if (signal.aborted) return;
      if (isRefusal(error)) {
        safely(options.onError, error);
        return;
      }
      safely(options.onWarning, error);
    }
    await pause(retryMs, signal);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
}
