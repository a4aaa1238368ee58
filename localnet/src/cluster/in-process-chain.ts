/**
 * The chain port over a LiteSVM cluster in this process: the fast mode of unit, program and suite
 * runs. It keeps the port's contract exactly as the RPC implementation does (getTransaction defaults
 * to `confirmed`, log notifications come at the commitment asked, answers arrive on a later turn of
 * the event loop), so a flow that passes here does not lean on something RPC cannot give it.
 */
import type { ChainPort, Commitment, LogsNotification, TransactionRecord } from "@cpay/sdk/chain";
import { commitmentOfSlot, meetsCommitment } from "./commitment";
import type { EmbeddedCluster } from "./embedded-cluster";

/** Resolves on a later turn, like a network answer, so callers cannot depend on synchronous results. */
function later<T>(read: () => T): Promise<T> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(read());
      } catch (error) {
        reject(error);
      }
    }),
  );
}

function mentions(record: TransactionRecord, address: string): boolean {
  return (
    record.accountKeys.includes(address) ||
    record.loadedAddresses.writable.includes(address) ||
    record.loadedAddresses.readonly.includes(address)
  );
}

export function inProcessChain(cluster: EmbeddedCluster): ChainPort {
  const unsubscribers = new Set<() => void>();
  const track = (unsubscribe: () => void) => {
    const once = () => {
      if (unsubscribers.delete(once)) unsubscribe();
    };
    unsubscribers.add(once);
    return once;
  };

  return {
    programId: cluster.programId,
    usdgMint: cluster.usdgMint,
    genesisHash: cluster.genesisHash,

    getSlot: (commitment) => later(() => cluster.getSlot(commitment)),
    getBlockHeight: (commitment) => later(() => cluster.getBlockHeight(commitment)),
    getLatestBlockhash: () => later(() => cluster.getLatestBlockhash()),
    isBlockhashValid: (blockhash) => later(() => cluster.isBlockhashValid(blockhash)),
    minimumBalanceForRentExemption: (dataLength) =>
      later(() => cluster.minimumBalanceForRentExemption(dataLength)),

    getAccount: (address) => later(() => cluster.getAccount(address)),
    getMultipleAccounts: (addresses) => later(() => addresses.map((address) => cluster.getAccount(address))),
    getProgramAccounts: (programId) => later(() => cluster.getProgramAccounts(programId)),

    sendTransaction: (wire, options) => later(() => cluster.sendTransaction(wire, options)),
    simulateTransaction: (wire, options) =>
      later(() => {
        const simulated = cluster.simulateTransaction(wire, options);
        // The port answers what RPC's simulateTransaction answers: inner instructions only when asked.
        if (options?.innerInstructions === true) return simulated;
        const { innerInstructions: _inner, accountKeys: _keys, ...outcome } = simulated;
        return outcome;
      }),
    requestAirdrop: (address, lamports) => later(() => cluster.requestAirdrop(address, lamports)),

    getSignatureStatus: (signature) => later(() => cluster.getSignatureStatus(signature)),
    getSignatureStatuses: (signatures) =>
      later(() => signatures.map((signature) => cluster.getSignatureStatus(signature))),
    getTransaction: (signature, commitment: Commitment = "confirmed") =>
      later(() => cluster.getTransaction(signature, commitment)),
    getSignaturesForAddress: (address, options = {}) =>
      later(() => {
        const { commitment = "processed", ...page } = options;
        return cluster
          .getSignaturesForAddress(address, page)
          .filter((info) => meetsCommitment(info.confirmationStatus, commitment));
      }),

    onSlot(listener) {
      return track(cluster.on("slot", (update) => listener(update.slot)));
    },
    onLogs(address, commitment, listener) {
      // Landed transactions wait here until their slot reaches `commitment`, as a validator's
      // logsSubscribe at that commitment would hold them.
      const waiting: TransactionRecord[] = [];
      const notify = (record: TransactionRecord) => {
        const notification: LogsNotification = {
          signature: record.signature,
          slot: record.slot,
          err: record.err,
          logs: record.logs,
        };
        listener(notification);
      };
      const release = () => {
        for (let index = 0; index < waiting.length; ) {
          const record = waiting[index] as TransactionRecord;
          if (meetsCommitment(commitmentOfSlot(record.slot, cluster.clock.slot), commitment)) {
            waiting.splice(index, 1);
            notify(record);
          } else index += 1;
        }
      };
      const offTransaction = cluster.on("transaction", (record) => {
        if (!mentions(record, address)) return;
        waiting.push(record);
        release();
      });
      const offSlot = cluster.on("slot", release);
      return track(() => {
        offTransaction();
        offSlot();
      });
    },

    async close() {
      for (const unsubscribe of [...unsubscribers]) unsubscribe();
    },
  };
}
