/**
 * Renders landed cluster transactions as a Helius "raw" webhook would deliver them: a JSON array of
 * `getTransaction` (`json` encoding) objects plus `indexWithinBlock`, numbers as JSON numbers.
 *
 * Built from the cluster's own record and wire bytes (decoded with kit), so the receiver's tests
 * read real program transactions, not hand-written logs. Token balances are left empty: the
 * embedded cluster does not keep them and nothing downstream reads them.
 */
import type { TransactionRecord } from "@cpay/localnet/cluster";
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type ReadonlyUint8Array,
} from "@solana/kit";

const base58 = getBase58Decoder();
const ZERO_SIGNATURE = new Uint8Array(64);

/** One raw entry, as plain JSON-ready data. */
export function heliusRawEntry(record: TransactionRecord, indexWithinBlock = 0): Record<string, unknown> {
  const transaction = getTransactionDecoder().decode(record.wire);
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (message.version === 1) throw new Error("Helius raw webhooks do not carry v1 transactions");
  const lookups = message.version === 0 ? (message.addressTableLookups ?? []) : [];
  return {
    blockTime: Number(record.blockTime),
    indexWithinBlock,
    meta: {
      err: record.err,
      fee: Number(record.fee),
      innerInstructions: record.innerInstructions.map((group) => ({
        index: group.index,
        instructions: group.instructions.map((inner) => ({
          accounts: [...inner.accounts],
          data: base58.decode(inner.data),
          programIdIndex: inner.programIdIndex,
          stackHeight: inner.stackHeight,
        })),
      })),
      loadedAddresses: {
        readonly: [...record.loadedAddresses.readonly],
        writable: [...record.loadedAddresses.writable],
      },
      logMessages: [...record.logs],
      postBalances: record.postBalances.map(Number),
      postTokenBalances: [],
      preBalances: record.preBalances.map(Number),
      preTokenBalances: [],
      rewards: [],
      computeUnitsConsumed: Number(record.computeUnitsConsumed),
    },
    slot: Number(record.slot),
    transaction: {
      message: {
        accountKeys: [...message.staticAccounts],
        addressTableLookups:
          message.version === 0
            ? lookups.map((lookup) => ({
                accountKey: lookup.lookupTableAddress,
                readonlyIndexes: [...lookup.readonlyIndexes],
                writableIndexes: [...lookup.writableIndexes],
              }))
            : null,
        header: {
          numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
          numRequiredSignatures: message.header.numSignerAccounts,
        },
        instructions: message.instructions.map((instruction) => ({
          accounts: [...(instruction.accountIndices ?? [])],
          data: base58.decode(instruction.data ?? new Uint8Array()),
          programIdIndex: instruction.programAddressIndex,
        })),
        recentBlockhash: message.lifetimeToken,
      },
      // Signer order: kit's map is keyed by the signing accounts in message order.
      signatures: Object.values(transaction.signatures).map((signature: ReadonlyUint8Array | null) =>
        base58.decode(signature ?? ZERO_SIGNATURE),
      ),
    },
  };
}

/** A whole delivery: the entries of `records`, in order, each numbered within its slot. */
export function heliusRawPayload(records: readonly TransactionRecord[]): Record<string, unknown>[] {
  const inSlot = new Map<bigint, number>();
  return records.map((record) => {
    const index = inSlot.get(record.slot) ?? 0;
    inSlot.set(record.slot, index + 1);
    return heliusRawEntry(record, index);
  });
}
