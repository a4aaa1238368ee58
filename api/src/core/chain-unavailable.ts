/**
 * Whether a failure was the cluster being out of reach rather than a refusal: a use case that must
 * not record a guess (a submission that may have landed) and the HTTP door's `503
 * chain_unavailable` both ask it.
 */
import { ChainUnavailable } from "@cpay/sdk/chain";

/** True when the cluster could not be reached (the RPC refused, timed out or answered 5xx), anywhere in `error`'s cause chain. */
export function isChainUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
    if (current instanceof ChainUnavailable) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
