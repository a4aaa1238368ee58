/**
 * A fork the indexer can see. Neither the embedded cluster nor the localnet process ever forks, so
 * this chain is any IndexerChain (indexerChainOver a chain port: in process or over RPC) plus real
 * program transactions that landed on ANOTHER cluster, read there through its own chain port, shown
 * as if they had landed at a given slot on a sibling fork that reached `confirmed`: listed by
 * signaturesForProgram at their slot (newest first, with getSignaturesForAddress's paging rules),
 * served by transaction(), `confirmed` in signatureStates. While a fork stands the cluster does not
 * finalize its slot (finalization waits for the fork choice). Once it is abandoned its transaction
 * is gone, as on a real cluster: not listed, not served, and unknown to signatureStates (null),
 * while the finalized slot moves on past it (the test moves the cluster's clock).
 */
import type { ChainTransaction, IndexerChain, ProgramSignature } from "@cpay/indexer";
import type { ChainPort } from "@cpay/sdk/chain";
import { signaturePage } from "./signature-page";

export interface ForkedChain extends IndexerChain {
  /**
   * Shows the transaction `signature` of `source` (another cluster running the same program, read
   * through its chain port at `confirmed`) as landed at `slot` on a fork of this chain, the newest
   * transaction of that slot. `slot` must be a confirmed slot of this chain (read through its port).
   * Resolves with what the fork now serves.
   */
  fork(source: ChainPort, signature: string, slot: bigint): Promise<ChainTransaction>;
  /** The cluster chose the other branch: the forked transaction is gone from here on. */
  abandon(signature: string): void;
}

/** getSignaturesForAddress's page maximum. */
const PAGE = 1000;

/** `inner` with forks layered over it; closing it closes `inner`. */
export function createForkedChain(inner: IndexerChain): ForkedChain {
  const forked = new Map<string, { record: ChainTransaction; abandoned: boolean }>();
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
    for (const { record } of standing()) {
      const { slot } = record;
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
    async fork(source, signature, slot) {
      const landed = await source.getTransaction(signature, "confirmed");
      if (landed === null) throw new Error(`${signature} is not confirmed on the source cluster`);
      const record = { signature, slot, blockTime: landed.blockTime, err: landed.err, logs: landed.logs };
      forked.set(signature, { record, abandoned: false });
      return record;
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
      return entry.abandoned ? null : entry.record;
    },
    async signatureStates(signatures) {
      const states = await inner.signatureStates(signatures);
      return signatures.map((signature, index) => {
        const entry = forked.get(signature);
        if (entry === undefined) return states[index] ?? null;
        if (entry.abandoned) return null;
        return { slot: entry.record.slot, confirmationStatus: "confirmed", err: entry.record.err };
      });
    },
    async finalizedSlot() {
      const finalized = await inner.finalizedSlot();
      const lowest = standing().reduce<bigint | null>(
        (low, { record: { slot } }) => (low === null || slot < low ? slot : low),
        null,
      );
      return lowest === null || finalized < lowest ? finalized : lowest - 1n;
    },
  };
}
