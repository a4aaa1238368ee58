/**
 * Waiting for a sent transaction to land. `sendTransaction` only hands the transaction over: it may
 * land a moment later, or never (dropped on the way to the leader, or its blockhash expired first).
 * The signature status is the answer; once the blockhash it was signed with is no longer valid and
 * the status is still unknown, it can never land.
 *
 * While it waits, the same signed bytes are handed over again every `resendMs` (as Solana's own
 * clients rebroadcast): a dropped transaction gets another chance, and it is the same transaction
 * (the same signature), so it lands once at most. A failed re-send decides nothing: only the status
 * and the blockhash's validity do. Both are read at or above the slots the port already saw
 * (rpc-chain.ts), so a lagging node can neither expire a live blockhash nor hide a landed status.
 */
import type { ChainPort } from "./chain-port";
import { type SignatureStatus, SubmissionRejected } from "./chain-types";

/**
 * A transaction that can never land: its blockhash expired before the cluster knew its signature
 * (awaitLanding answered null), or the cluster refused its blockhash as unknown. Nothing of it
 * landed, so the same operation signed again with a fresh blockhash is not a second one — as long
 * as the operation itself can land once at most (a transfer's receipt). An operation without one
 * needs the stronger, finalized proof first (never-landed-proof.ts).
 */
export class TransactionExpired extends Error {
  constructor(
    readonly signature: string,
    /** Its blockhash's last valid block height: what proveNeverLanded (never-landed-proof.ts) checks. */
    readonly lastValidBlockHeight: bigint,
  ) {
    super(`transaction ${signature} did not land before its blockhash expired`);
    this.name = "TransactionExpired";
  }
}

/** True when `error`, or an error in its `cause` chain, says a transaction can never land. */
export function isNeverLanded(error: unknown): boolean {
  return causes(error).some(
    (cause) =>
      cause instanceof TransactionExpired ||
      (cause instanceof SubmissionRejected && cause.kind === "blockhash_not_found"),
  );
}

/** The TransactionExpired in `error`'s `cause` chain (the transaction judged never to land), if any. */
export function expiredTransactionIn(error: unknown): TransactionExpired | null {
  return (causes(error).find((cause) => cause instanceof TransactionExpired) as TransactionExpired) ?? null;
}

/** `error` and its `cause` chain, five deep at most. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

export interface AwaitLandingOptions {
  /** Between status reads; default 200 ms. */
  readonly pollMs?: number;
  /** The signed transaction, handed over again every `resendMs` while it has not landed. */
  readonly wire?: Uint8Array;
  /** Default 1 s. */
  readonly resendMs?: number;
}

/**
 * The status of `signature` as soon as the cluster knows it (at `processed`; `err` says whether it
 * failed), or null once `blockhash` (the one it was signed with) has expired without it landing.
 */
export async function awaitLanding(
  chain: ChainPort,
  signature: string,
  blockhash: string,
  options: AwaitLandingOptions = {},
): Promise<SignatureStatus | null> {
  const pollMs = options.pollMs ?? 200;
  const resendMs = options.resendMs ?? 1000;
  let lastSent = Date.now();
  for (;;) {
    const status = await chain.getSignatureStatus(signature);
    if (status !== null) return status;
    // Only asked while it has not landed (usually it has by the first read). It may land between
    // the two reads: only a status read after expiry is final.
    if (!(await chain.isBlockhashValid(blockhash))) return chain.getSignatureStatus(signature);
    if (options.wire !== undefined && Date.now() - lastSent >= resendMs) {
      lastSent = Date.now();
      await chain.sendTransaction(options.wire).catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
