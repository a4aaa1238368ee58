/**
 * Reads a suite asserts with, awaited through the chain port so the same suite holds in process and
 * over RPC (the localnet process).
 */
import type { ChainPort, TransactionRecord } from "@cpay/sdk/chain";

/**
 * What an address has signed so far (its newest signature) and its lamports: a refused request
 * changes neither. The newest signature, not a count, since history pages stop at 1000.
 */
export async function signerState(
  chain: ChainPort,
  signer: string,
): Promise<{ readonly newestSignature: string | null; readonly lamports: bigint | undefined }> {
  await settled(chain);
  const [newest] = await chain.getSignaturesForAddress(signer, { limit: 1, commitment: "confirmed" });
  return {
    newestSignature: newest?.signature ?? null,
    lamports: (await chain.getAccount(signer))?.lamports,
  };
}

/** A landed transaction, waiting until the chain serves it at `confirmed` (RPC has no `processed` history). */
export async function landedTransaction(chain: ChainPort, signature: string): Promise<TransactionRecord> {
  // A safety net for a busy machine, not a schedule.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const record = await chain.getTransaction(signature, "confirmed");
    if (record !== null) return record;
    if (Date.now() > deadline) throw new Error(`transaction ${signature} was not confirmed within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function lamportsOf(chain: ChainPort, account: string): Promise<bigint> {
  return (await chain.getAccount(account))?.lamports ?? 0n;
}

/**
 * Waits until everything landed so far is `confirmed` (one slot on top), so history read at
 * `confirmed` (all RPC serves) includes it.
 */
export async function settled(chain: ChainPort): Promise<void> {
  const processed = await chain.getSlot("processed");
  while ((await chain.getSlot("confirmed")) < processed)
    await new Promise((resolve) => setTimeout(resolve, 10));
}
