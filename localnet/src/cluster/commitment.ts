/**
 * Commitment on a single-leader chain with no forks. The embedded cluster has no votes, so the levels
 * are defined by slots alone, with Solana's usual spacing:
 *
 * - `processed`: the transaction landed in slot S (LiteSVM executes on submission, in the current slot);
 * - `confirmed`: at least one more slot has been produced (current slot >= S + 1), the embedded
 *   stand-in for a supermajority vote on S;
 * - `finalized`: 32 slots on top (current slot >= S + 32), Solana's lockout depth for rooting.
 *
 * So a status only moves when the slot clock moves, and `pending -> confirmed` is a real transition.
 */
import { type Commitment, meetsCommitment } from "@cpay/sdk/chain";

export { meetsCommitment };

/** Slots on top of S before S counts as finalized (Solana's MAX_LOCKOUT_HISTORY). */
export const FINALITY_DEPTH = 32n;
/** Slots on top of S before S counts as confirmed. */
export const CONFIRMATION_DEPTH = 1n;

/** The commitment a transaction that landed in `slot` has when the chain is at `currentSlot`. */
export function commitmentOfSlot(slot: bigint, currentSlot: bigint): Commitment {
  const depth = currentSlot - slot;
  if (depth >= FINALITY_DEPTH) return "finalized";
  if (depth >= CONFIRMATION_DEPTH) return "confirmed";
  return "processed";
}

/** The highest slot at `commitment` (never below the genesis slot). */
export function highestSlotAt(commitment: Commitment, currentSlot: bigint, genesisSlot: bigint): bigint {
  const depth =
    commitment === "finalized" ? FINALITY_DEPTH : commitment === "confirmed" ? CONFIRMATION_DEPTH : 0n;
  const slot = currentSlot - depth;
  return slot < genesisSlot ? genesisSlot : slot;
}
