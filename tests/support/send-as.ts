/**
 * Sends instructions as one transaction paid by `feePayer` (any kit signer: a key file's, a
 * signing program's) with preflight, and waits for it to land; throws unless it succeeded. For suites
 * that act on a cluster as its operator would (initialising a program config, creating a mint).
 */
import { awaitLanding, type ChainPort, signTransactionToWire } from "@cpay/sdk/chain";
import type { Instruction, TransactionSigner } from "@solana/kit";

export async function sendAs(
  chain: ChainPort,
  feePayer: TransactionSigner,
  instructions: readonly Instruction[],
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
  const { signature, wire } = await signTransactionToWire({
    feePayer,
    instructions,
    blockhash,
    lastValidBlockHeight,
  });
  await chain.sendTransaction(wire, { preflight: true });
  const status = await awaitLanding(chain, signature, blockhash);
  if (status === null || status.err !== null) {
    throw new Error(`${signature} did not land: ${JSON.stringify(status?.err ?? "expired")}`);
  }
  return signature;
}
