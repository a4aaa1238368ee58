/**
 * Reading a transaction the caller knows has landed. A landed transaction is readable only once it
 * is `confirmed` (RPC refuses getTransaction at `processed`), which is a slot or so after its status
 * first appears: this waits for that instead of mistaking "not yet confirmed" for "not there".
 */
import type { ChainPort } from "./chain-port";
import type { TransactionRecord } from "./chain-types";

export interface ConfirmedTransactionOptions {
  /** Between reads; default 100 ms. */
  readonly pollMs?: number;
  /** Gives up (throws) after this long without the transaction reaching `confirmed`; default 60 s. */
  readonly timeoutMs?: number;
}

/**
 * The transaction `signature` at `confirmed`, once it gets there; null when the cluster does not
 * know the signature at all. Throws when a known signature stays short of `confirmed` past
 * `timeoutMs` (the cluster stopped producing slots).
 */
export async function confirmedTransaction(
  chain: ChainPort,
  signature: string,
  options: ConfirmedTransactionOptions = {},
): Promise<TransactionRecord | null> {
  const pollMs = options.pollMs ?? 100;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const [record, status] = await Promise.all([
      chain.getTransaction(signature, "confirmed"),
      chain.getSignatureStatus(signature),
    ]);
    if (record !== null) return record;
    if (status === null) return null;
    if (Date.now() >= deadline) {
      throw new Error(
        `transaction ${signature} did not reach confirmed within ${options.timeoutMs ?? 60_000} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
