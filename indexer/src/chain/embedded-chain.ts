/**
 * The embedded cluster as an indexer chain: the in-process LiteSVM cluster the API and the tests
 * run on. Reads go straight to the cluster port at `confirmed`; every new slot is a hint to look,
 * because that is when transactions of the previous slot become confirmed.
 */
import type { ClusterPort } from "@cpay/sdk/cluster";
import { meetsCommitment } from "@cpay/sdk/cluster";
import { tokenAccountOwnerOf } from "@cpay/sdk/confidential";
import type { IndexerChain } from "./indexer-chain";

export function createEmbeddedChain(cluster: ClusterPort): IndexerChain {
  const unsubscribers = new Set<() => void>();
  return {
    programId: cluster.programId,
    usdgMint: cluster.usdgMint,
    async signaturesForProgram(page) {
      return cluster
        .getSignaturesForAddress(cluster.programId, page)
        .filter((entry) => meetsCommitment(entry.confirmationStatus, "confirmed"))
        .map(({ signature, slot, err }) => ({ signature, slot, err }));
    },
    async transaction(signature) {
      const record = cluster.getTransaction(signature, "confirmed");
      if (record === null) return null;
      const { slot, blockTime, err, logs } = record;
      return { signature, slot, blockTime, err, logs };
    },
    async signatureStates(signatures) {
      return signatures.map((signature) => cluster.getSignatureStatus(signature));
    },
    async finalizedSlot() {
      return cluster.getSlot("finalized");
    },
    async programAccountData(address) {
      const account = cluster.getAccount(address);
      return account !== null && account.owner === cluster.programId ? account.data : null;
    },
    async tokenAccountOwner(address) {
      const account = cluster.getAccount(address);
      return account === null ? null : tokenAccountOwnerOf(account.owner, account.data);
    },
    watch(onActivity) {
      const unsubscribe = cluster.on("slot", () => onActivity());
      unsubscribers.add(unsubscribe);
      return () => {
        unsubscribe();
        unsubscribers.delete(unsubscribe);
      };
    },
    async close() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers.clear();
    },
  };
}
