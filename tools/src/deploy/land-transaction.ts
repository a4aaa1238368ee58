/**
 * One deploy transaction landed over a real RPC: signed with a fresh blockhash, sent with preflight
 * (so a refusal comes back with the program's logs), then its status read until it lands or its
 * blockhash expires. What a real endpoint does to a client is survived, without ever sending a
 * second copy while the first may still land:
 * - 429/5xx/timeouts (ChainUnavailable) are retried with exponential backoff and jitter; a send
 *   that failed that way may have reached a leader, so its signature is followed to the end;
 * - a transaction dropped on the way (its blockhash expires unlanded) is signed again and resent;
 * - a stale blockhash at the node is signed again.
 */
import {
  awaitLanding,
  type ChainPort,
  ChainUnavailable,
  SubmissionRejected,
  signTransactionToWire,
} from "@cpay/sdk/chain";
import type { Instruction, TransactionSigner } from "@solana/kit";
import { DeployError } from "./deploy-error";

const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;

export interface DeployTransaction {
  readonly feePayer: TransactionSigner;
  readonly instructions: readonly Instruction[];
  /** Signers besides those the instructions carry (e.g. a new account's keypair). */
  readonly signers?: readonly TransactionSigner[];
  /** What it does, for messages ("write at 1024"). */
  readonly what: string;
}

/** Lands `transaction` (see the module doc) and returns its signature; DeployError if it fails. */
export async function landTransaction(
  chain: ChainPort,
  transaction: DeployTransaction,
  options: { readonly pollMs?: number } = {},
): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const sent = await retryUnavailable(() => signAndSend(chain, transaction), transaction.what);
    if (sent === "stale") continue;
    const status = await retryUnavailable(
      () => awaitLanding(chain, sent.signature, sent.blockhash, { pollMs: options.pollMs ?? 150 }),
      transaction.what,
    );
    if (status !== null && status.err !== null) {
      throw new DeployError(
        `${transaction.what} failed on chain (${sent.signature}): ${JSON.stringify(status.err)}`,
      );
    }
    if (status !== null) return sent.signature;
    if (attempt >= MAX_ATTEMPTS) {
      throw new DeployError(
        `${transaction.what} did not land in ${MAX_ATTEMPTS} attempts (dropped each time)`,
      );
    }
  }
}

async function signAndSend(
  chain: ChainPort,
  transaction: DeployTransaction,
): Promise<{ readonly signature: string; readonly blockhash: string } | "stale"> {
  const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
  const { signature, wire } = await signTransactionToWire({
    feePayer: transaction.feePayer,
    instructions: transaction.instructions,
    blockhash,
    lastValidBlockHeight,
    signers: transaction.signers,
  });
  try {
    await chain.sendTransaction(wire, { preflight: true });
  } catch (error) {
    if (error instanceof SubmissionRejected) {
      if (error.kind === "blockhash_not_found") return "stale";
      const logs = error.outcome?.logs.slice(-6).join("\n  ") ?? "";
      throw new DeployError(`${transaction.what} was refused: ${error.message}${logs ? `\n  ${logs}` : ""}`);
    }
    // It may have reached a leader all the same: its status decides, not a second send.
    if (!(error instanceof ChainUnavailable)) throw error;
  }
  return { signature, blockhash };
}

/** Runs `work` again while the endpoint is unavailable, backing off with jitter. */
async function retryUnavailable<T>(work: () => Promise<T>, what: string): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new DeployError(`${what}: the RPC stayed unavailable (${error.message})`);
      }
      const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, ceiling / 2 + Math.random() * (ceiling / 2)));
    }
  }
}
