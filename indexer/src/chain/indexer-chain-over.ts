/**
 * The indexer's chain over a chain port (`@cpay/sdk/chain`): the same code whether the port is the
 * in-process cluster (the API's embedded mode and the suites) or Solana JSON-RPC + PubSub (the
 * standalone indexer, any validator or provider).
 *
 * Reads are at `confirmed`, the indexer's write commitment; finality is asked at `finalized`.
 * `watch` is a hint, never the source of truth (see indexer-chain.ts): a log subscription on the
 * program says "look now" as soon as a program transaction confirms, and a poll timer says it every
 * `pollMs` regardless, so a socket that drops (the port re-subscribes with backoff) or a provider
 * that silently stops notifying only costs latency.
 */
import type { ChainPort } from "@cpay/sdk/chain";
import { tokenAccountOwnerOf } from "@cpay/sdk/confidential";
import type { IndexerChain } from "./indexer-chain";

export interface IndexerChainOptions {
  /** Period of the poll that backs up the log subscription; default 1000 ms. */
  readonly pollMs?: number;
  /**
   * Failures of the live path: an `onActivity` that threw or rejected, a log subscription the node
   * refused for good. Indexing goes on through the poll. Default: logged to stderr.
   */
  readonly onError?: (error: unknown) => void;
}

const DEFAULT_POLL_MS = 1000;

function logError(error: unknown): void {
  console.error("[indexer-chain]", error);
}

/**
 * An IndexerChain reading and watching `chain` (see the module doc). `close` ends its watchers;
 * the port stays open for its owner to close.
 */
export function indexerChainOver(chain: ChainPort, options: IndexerChainOptions = {}): IndexerChain {
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const onError = options.onError ?? logError;
  const report = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // A failing error handler must not become an unhandled rejection.
    }
  };
  const watchers = new Set<() => void>();
  let closed = false;

  return {
    programId: chain.programId,
    usdgMint: chain.usdgMint,

    async signaturesForProgram(page) {
      const found = await chain.getSignaturesForAddress(chain.programId, {
        ...page,
        commitment: "confirmed",
      });
      return found.map(({ signature, slot, err }) => ({ signature, slot, err }));
    },
    async transaction(signature) {
      const record = await chain.getTransaction(signature, "confirmed");
      if (record === null) return null;
      const { slot, blockTime, err, logs } = record;
      return { signature, slot, blockTime, err, logs };
    },
    async signatureStates(signatures) {
      const statuses = await chain.getSignatureStatuses(signatures);
      return statuses.map((status) =>
        status === null
          ? null
          : { slot: status.slot, confirmationStatus: status.confirmationStatus, err: status.err },
      );
    },
    finalizedSlot: () => chain.getSlot("finalized"),
    async programAccountData(address) {
      const account = await chain.getAccount(address, "confirmed");
      return account !== null && account.owner === chain.programId ? account.data : null;
    },
    async tokenAccountOwner(address) {
      const account = await chain.getAccount(address, "confirmed");
      return account === null ? null : tokenAccountOwnerOf(account.owner, account.data);
    },

    watch(onActivity) {
      if (closed) throw new Error("the indexer chain is closed");
      let active = true;
      // Deferred to a microtask so a throwing or rejecting (async) onActivity is reported, never
      // escapes; checked again there so nothing is delivered after unsubscribe.
      const notify = () => {
        Promise.resolve()
          .then(() => {
            if (active) return onActivity();
          })
          .catch(report);
      };
      const timer = setInterval(notify, pollMs);
      const unsubscribeLogs = chain.onLogs(chain.programId, "confirmed", notify, report);
      const unsubscribe = () => {
        active = false;
        clearInterval(timer);
        unsubscribeLogs();
        watchers.delete(unsubscribe);
      };
      watchers.add(unsubscribe);
      return unsubscribe;
    },
    async close() {
      closed = true;
      for (const unsubscribe of [...watchers]) unsubscribe();
    },
  };
}
