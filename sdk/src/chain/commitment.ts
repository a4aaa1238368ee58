/** Commitment levels in order: `processed` < `confirmed` < `finalized`. */
import type { Commitment } from "./chain-types";

const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/** True when `actual` is at least as strong as `required`. */
export function meetsCommitment(actual: Commitment, required: Commitment): boolean {
  return RANK[actual] >= RANK[required];
}
