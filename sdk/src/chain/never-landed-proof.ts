/**
 * The finalized proof that a transaction can never land, for operations that cannot refuse a
 * second landing themselves (no receipt) and so may be signed again only on certainty.
 *
 * A transaction can land only in a block whose height is at most its blockhash's
 * `lastValidBlockHeight`, and every future block descends from the finalized block. So once the
 * finalized block height is above it, the blocks that could hold the transaction are all settled:
 * if its signature is still unknown (read after that), it is in none of them and can never be.
 * `awaitLanding`'s expiry (the blockhash invalid at `processed`) is weaker: another fork may still
 * carry the transaction.
 *
 * The status is read after the finalized slot was read: the port never answers from behind a slot
 * it saw (rpc-chain.ts), so the node that says "unknown" has that finalized block.
 */
import type { TransactionExpired } from "./await-landing";
import type { ChainPort } from "./chain-port";

/**
 * - `never_landed`: proved (see the module doc);
 * - `landed`: the cluster knows the signature after all (it landed, maybe failed: read it);
 * - `undecided`: the finalized height did not pass `lastValidBlockHeight` within the wait.
 */
export type NeverLandedProof = "never_landed" | "landed" | "undecided";

export interface ProveNeverLandedOptions {
  /** Between finalized height reads; default 400 ms (about a Solana slot). */
  readonly pollMs?: number;
  /**
   * How long to wait for the finalized height; default 150 s: a blockhash lives ~150 blocks (~60 s
   * on Solana) and finality trails the tip by ~32 slots (~13 s), with room for a slow cluster.
   */
  readonly timeoutMs?: number;
}

/** Waits for the finalized proof that `expired` can never land (see the module doc). */
export async function proveNeverLanded(
  chain: ChainPort,
  expired: Pick<TransactionExpired, "signature" | "lastValidBlockHeight">,
  options: ProveNeverLandedOptions = {},
): Promise<NeverLandedProof> {
  const pollMs = options.pollMs ?? 400;
  const deadline = Date.now() + (options.timeoutMs ?? 150_000);
  for (;;) {
    if ((await chain.getBlockHeight("finalized")) > expired.lastValidBlockHeight) {
      // Raises the port's floor to a finalized slot at least that high before the status read.
      await chain.getSlot("finalized");
      return (await chain.getSignatureStatus(expired.signature)) === null ? "never_landed" : "landed";
    }
    if (Date.now() >= deadline) return "undecided";
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
