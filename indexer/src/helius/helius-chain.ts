/**
 * An IndexerChain fed by Helius pushes on top of an RPC chain.
 *
 * A push is a "look now" hint only: `watch` listeners get `onActivity(tx)`, the engine starts a pass
 * at once, and that pass reads everything — the signature walk from the checkpoint, the
 * transactions, finality, accounts — from `base`, the RPC chain. Pushed content never decides a
 * record: Helius signs nothing (its `authHeader` is a shared secret), so a leaked header must not be
 * enough to plant a payment's logs; and Helius drops an event after three failed deliveries and can
 * deliver one twice, so the walk would have to run anyway. The cost is one getTransaction per
 * program transaction, which the RPC walk pays with or without Helius.
 */
import type { ChainTransaction, IndexerChain } from "../chain/indexer-chain";

export interface HeliusPushes {
  /** `base`, plus the pushed transactions (see the module doc). */
  readonly chain: IndexerChain;
  /**
   * Hands pushed transactions to every `watch` listener. Throws after all listeners ran if any of them threw (the first error, or an
   * AggregateError), so the receiver answers 500 and Helius retries.
   */
  receive(transactions: readonly ChainTransaction[]): void;
}

/** Wraps `base` so Helius pushes reach the indexer (see the module doc). */
export function withHeliusPushes(base: IndexerChain): HeliusPushes {
  const listeners = new Set<(transaction?: ChainTransaction) => void>();

  const chain: IndexerChain = {
    programId: base.programId,
    usdgMint: base.usdgMint,
    signaturesForProgram: (page) => base.signaturesForProgram(page),
    transaction: (signature) => base.transaction(signature),
    signatureStates: (signatures) => base.signatureStates(signatures),
    finalizedSlot: () => base.finalizedSlot(),
    programAccountData: (address) => base.programAccountData(address),
    tokenAccountOwner: (tokenAccount) => base.tokenAccountOwner(tokenAccount),
    watch(onActivity) {
      // A wrapper per call, so watching twice with one function is two subscriptions, as on `base`.
      const listener = (transaction?: ChainTransaction) => onActivity(transaction);
      listeners.add(listener);
      const unwatchBase = base.watch(onActivity);
      return () => {
        listeners.delete(listener);
        unwatchBase();
      };
    },
    async close() {
      listeners.clear();
      await base.close();
    },
  };

  const receive = (transactions: readonly ChainTransaction[]) => {
    const errors: unknown[] = [];
    for (const transaction of transactions) {
      for (const listener of [...listeners]) {
        try {
          listener(transaction);
        } catch (error) {
          errors.push(error);
        }
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "watch listeners failed on pushed transactions");
  };

  return { chain, receive };
}
