/**
 * Every transaction that landed on the embedded cluster, success or failure, in landing order, with
 * an index by account so getSignaturesForAddress does not scan. LiteSVM keeps only a small ring of
 * results for its own duplicate check; this is the cluster's status cache and transaction history.
 * In memory it grows with every transaction; a cluster with a localnet directory drops what is older
 * than its retention when it writes a snapshot (`retainFrom`).
 */
import { createHash } from "node:crypto";
import { getTransactionDecoder, type ReadonlyUint8Array } from "@solana/kit";
import type { TransactionRecord } from "./cluster-port";

/** getSignaturesForAddress's default and maximum page, as on Solana RPC. */
export const MAX_SIGNATURES_PAGE = 1000;

export interface SignaturePage {
  /** Newer bound, exclusive: start with the transaction just older than this one. */
  readonly before?: string;
  /** Older bound, exclusive: stop before reaching this one. */
  readonly until?: string;
  /** 1..1000, default 1000. */
  readonly limit?: number;
}

export interface TransactionHistory {
  readonly size: number;
  add(record: TransactionRecord): void;
  get(signature: string): TransactionRecord | null;
  has(signature: string): boolean;
  /**
   * Whether a transaction with these message bytes landed, whatever its signatures: Agave's status
   * cache is keyed by the message, so a landed message is AlreadyProcessed even under other
   * signature bytes (what a simulation without signature checks would otherwise accept).
   */
  hasMessage(messageBytes: ReadonlyUint8Array): boolean;
  /**
   * Transactions that reference `address` (static or loaded key), newest first. An unknown `before`
   * or `until` signature yields an empty page / no bound respectively, so paging never restarts.
   */
  forAddress(address: string, page?: SignaturePage): TransactionRecord[];
  /** Every record, in landing order. */
  all(): readonly TransactionRecord[];
  /**
   * Forgets the transactions that landed before `slot` (their signatures too: a transaction that
   * old can no longer land again, its blockhash expired long before).
   */
  retainFrom(slot: bigint): void;
}

/** A history holding `initial` (in landing order), e.g. what a chain store restored. */
export function createTransactionHistory(initial: readonly TransactionRecord[] = []): TransactionHistory {
  let records: TransactionRecord[] = [];
  const bySignature = new Map<string, number>();
  const messages = new Set<string>();
  const byAddress = new Map<string, number[]>();
  const history: TransactionHistory = {
    get size() {
      return records.length;
    },
    add(record) {
      if (bySignature.has(record.signature)) throw new Error(`duplicate history entry ${record.signature}`);
      const position = records.push(record) - 1;
      bySignature.set(record.signature, position);
      messages.add(messageKey(transactionDecoder.decode(record.wire).messageBytes));
      const keys = new Set([
        ...record.accountKeys,
        ...record.loadedAddresses.writable,
        ...record.loadedAddresses.readonly,
      ]);
      for (const key of keys) {
        const list = byAddress.get(key);
        if (list === undefined) byAddress.set(key, [position]);
        else list.push(position);
      }
    },
    get(signature) {
      const position = bySignature.get(signature);
      return position === undefined ? null : (records[position] ?? null);
    },
    has: (signature) => bySignature.has(signature),
    hasMessage: (messageBytes) => messages.has(messageKey(messageBytes)),
    forAddress(address, page = {}) {
      const positions = byAddress.get(address) ?? [];
      const limit = Math.min(Math.max(Math.trunc(page.limit ?? MAX_SIGNATURES_PAGE), 1), MAX_SIGNATURES_PAGE);
      // Positions are global landing order, so comparing them orders across addresses too.
      let start = positions.length - 1;
      if (page.before !== undefined) {
        const before = bySignature.get(page.before);
        if (before === undefined) return [];
        while (start >= 0 && (positions[start] ?? -1) >= before) start--;
      }
      const until = page.until === undefined ? undefined : bySignature.get(page.until);
      const out: TransactionRecord[] = [];
      for (let i = start; i >= 0 && out.length < limit; i--) {
        const position = positions[i] ?? -1;
        if (until !== undefined && position <= until) break;
        const record = records[position];
        if (record !== undefined) out.push(record);
      }
      return out;
    },
    all: () => records,
    retainFrom(slot) {
      const kept = records.filter((record) => record.slot >= slot);
      if (kept.length === records.length) return;
      // Positions are indexes into `records`, so dropping a prefix means indexing again.
      records = [];
      bySignature.clear();
      messages.clear();
      byAddress.clear();
      for (const record of kept) history.add(record);
    },
  };
  for (const record of initial) history.add(record);
  return history;
}

const transactionDecoder = getTransactionDecoder();

/** A landed message's key in the status cache: its digest, so the set holds 64 hex characters a message. */
function messageKey(messageBytes: ReadonlyUint8Array): string {
  const bytes = messageBytes as Uint8Array; // read only: hashing never writes it
  return createHash("sha256").update(bytes).digest("hex");
}
