/**
 * Waiting for a sent transaction to land. `sendTransaction` only hands the transaction over: it may
 * land a moment later, or never (dropped, or its blockhash expired first). The signature status is
 * the answer; once the blockhash it was signed with is no longer valid and the status is still
 * unknown, it can never land.
 */
import type { ChainPort } from "./chain-port";
import type { SignatureStatus } from "./chain-types";

/**
 * The status of `signature` as soon as the cluster knows it (at `processed`; `err` says whether it
 * failed), or null once `blockhash` (the one it was signed with) has expired without it landing.
 */
export async function awaitLanding(
  chain: ChainPort,
  signature: string,
  blockhash: string,
  options: { readonly pollMs?: number } = {},
): Promise<SignatureStatus | null> {
  const pollMs = options.pollMs ?? 200;
  for (;;) {
    const status = await chain.getSignatureStatus(signature);
    if (status !== null) return status;
    // Only asked while it has not landed (usually it has by the first read). It may land between
    // the two reads: only a status read after expiry is final.
    if (!(await chain.isBlockhashValid(blockhash))) return chain.getSignatureStatus(signature);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
