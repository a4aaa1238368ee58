/**
 * Sends instructions the way a client would (kit: sign, send, confirm) and returns what the
 * program did — logs, compute units and the error, if any — read back with getTransaction.
 */
import {
  addSignersToTransactionMessage,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  type Signature,
  sendTransactionWithoutConfirmingFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import type { TestCluster } from "./test-cluster";

export interface Landed {
  readonly signature: Signature;
  readonly logs: readonly string[];
  readonly computeUnits: bigint;
  /** The transaction error as RPC reports it, or null. */
  readonly err: unknown;
}

/** `{ InstructionError: [index, { Custom: code }] }` -> code, else null. */
export function customErrorCode(err: unknown): number | null {
  const detail = (err as { InstructionError?: [number, { Custom?: number | bigint }] } | null)
    ?.InstructionError?.[1];
  return detail?.Custom === undefined ? null : Number(detail.Custom);
}

/**
 * Sends `instructions` paid by `payer` (plus `signers`) with preflight off, so a failing
 * transaction lands and its error is read back like any other outcome; waits until confirmed.
 */
export async function sendInstructions(
  cluster: TestCluster,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  signers: readonly KeyPairSigner[] = [],
): Promise<Landed> {
  const { value: blockhash } = await cluster.rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => addSignersToTransactionMessage([...signers], m),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(transaction);
  await sendTransactionWithoutConfirmingFactory({ rpc: cluster.rpc })(transaction, {
    commitment: "confirmed",
    skipPreflight: true,
  });
  const landed = await waitForTransaction(cluster, signature);
  return landed;
}

async function waitForTransaction(cluster: TestCluster, signature: Signature): Promise<Landed> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const tx = await cluster.rpc
      .getTransaction(signature, {
        commitment: "confirmed",
        encoding: "json",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    if (tx !== null) {
      return {
        signature,
        logs: tx.meta?.logMessages ?? [],
        computeUnits: BigInt(tx.meta?.computeUnitsConsumed ?? 0n),
        err: tx.meta?.err ?? null,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`transaction ${signature} was not confirmed within 30 s`);
}
