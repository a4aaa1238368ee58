/**
 * A fork the indexer can see. The embedded cluster never forks, so this chain is the embedded one
 * (indexerChainOver(inProcessChain)) plus real program transactions that landed on ANOTHER embedded cluster, shown
 * as if they had landed at a given slot on a sibling fork that reached `confirmed`: listed by
 * signaturesForProgram at their slot (newest first, with getSignaturesForAddress's paging rules),
 * served by transaction(), `confirmed` in signatureStates. While a fork stands the cluster does not
 * finalize its slot (finalization waits for the fork choice). Once it is abandoned its transaction
 * is gone, as on a real cluster: not listed, not served, and unknown to signatureStates (null),
 * while the finalized slot moves on past it.
 */
import type { IndexerChain, ProgramSignature } from "@cpay/indexer";
import { indexerChainOver } from "@cpay/indexer";
import type { EmbeddedCluster, TransactionRecord } from "@cpay/localnet/cluster";
import { inProcessChain } from "@cpay/localnet/cluster";
import { signaturePage } from "./signature-page";

export interface ForkedChain extends IndexerChain {
  /**
   * Shows `record` (landed on another cluster running the same program) as landed at `slot` on a
   * fork of this chain, the newest transaction of that slot. `slot` must be confirmed already.
   */
  fork(record: TransactionRecord, slot: bigint): void;
  /** The cluster chose the other branch: the forked transaction is gone from here on. */
  abandon(signature: string): void;
}

/** getSignaturesForAddress's page maximum. */
const PAGE = 1000;

export function createForkedChain(cluster: EmbeddedCluster): ForkedChain {
  const inner = indexerChainOver(inProcessChain(cluster));
  const forked = new Map<string, { record: TransactionRecord; slot: bigint; abandoned: boolean }>();
  const standing = () => [...forked.values()].filter((entry) => !entry.abandoned);

  /** Every program signature of the chain as it looks now, newest first. */
  const everything = async (): Promise<ProgramSignature[]> => {
    const real: ProgramSignature[] = [];
    for (;;) {
      const before = real.at(-1)?.signature;
      const page = await inner.signaturesForProgram({
        limit: PAGE,
        ...(before === undefined ? {} : { before }),
      });
      real.push(...page);
      if (page.length < PAGE) break;
    }
    const merged = [...real];
    for (const { record, slot } of standing()) {
      // The newest of its slot: in front of the first real entry at or below that slot.
      const at = merged.findIndex((entry) => entry.slot <= slot);
      merged.splice(at === -1 ? merged.length : at, 0, {
        signature: record.signature,
        slot,
        err: record.err,
      });
    }
    return merged;
  };

  return {
    ...inner,
    fork(record, slot) {
      if (slot > cluster.getSlot("confirmed")) throw new Error(`slot ${slot} is not confirmed yet`);
      forked.set(record.signature, { record, slot, abandoned: false });
    },
    abandon(signature) {
      const entry = forked.get(signature);
      if (entry === undefined) throw new Error(`${signature} was never forked in`);
      entry.abandoned = true;
    },
    async signaturesForProgram(page) {
      return signaturePage(await everything(), page);
    },
    async transaction(signature) {
      const entry = forked.get(signature);
      if (entry === undefined) return inner.transaction(signature);
      if (entry.abandoned) return null;
      const { record, slot } = entry;
      return { signature, slot, blockTime: record.blockTime, err: record.err, logs: record.logs };
    },
    async signatureStates(signatures) {
      const states = await inner.signatureStates(signatures);
      return signatures.map((signature, index) => {
        const entry = forked.get(signature);
        if (entry === undefined) return states[index] ?? null;
        if (entry.abandoned) return null;
        return { slot: entry.slot, confirmationStatus: "confirmed", err: entry.record.err };
      });
    },
    async finalizedSlot() {
      const finalized = await inner.finalizedSlot();
      const lowest = standing().reduce<bigint | null>(
        (low, { slot }) => (low === null || slot < low ? slot : low),
        null,
      );
      return lowest === null || finalized < lowest ? finalized : lowest - 1n;
    },
  };
}
