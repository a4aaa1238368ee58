/**
 * Landing and simulating wire transactions on LiteSVM with a validator's rules around it.
 *
 * Submission order, as in Agave: decode (malformed) -> age: blockhash queue or durable nonce
 * (blockhash_not_found) -> status cache: our history, by signature and by message
 * (already_processed) -> optional preflight simulation (preflight_failed) -> execute in LiteSVM,
 * which verifies signatures (signature_failure) and loads accounts (load_failed). Whatever got as far as executing lands in the current slot,
 * failed or not, with its fee charged (LiteSVM debits the fee of a failed transaction and keeps only
 * that), and is recorded and announced. Simulation runs the same age and status-cache checks
 * (Agave's bank does, whatever sigVerify says) before executing.
 */

import {
  type DecodedTransaction,
  decodeWireTransaction,
  MalformedTransaction,
  transactionFee,
  withRecentBlockhash,
} from "@cpay/sdk/chain";
import {
  type Address,
  getBase58Decoder,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__TRANSACTION__SIGNATURES_MISSING,
} from "@solana/kit";
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from "litesvm";
import type { BlockhashQueue } from "./blockhash-queue";
import type { ClusterEmitter } from "./cluster-events";
import {
  type ExecutionOutcome,
  type InnerInstructionGroup,
  type SimulationResult,
  SubmissionRejected,
  type TransactionErrorJson,
  type TransactionRecord,
} from "./cluster-port";
import type { SlotClock } from "./slot-clock";
import { isTransactionAgeValid } from "./transaction-age";
import { toTransactionErrorJson } from "./transaction-error";
import type { TransactionHistory } from "./transaction-history";

export interface SimulateOptions {
  /** Verify signatures (default false, like RPC). Not allowed with replaceRecentBlockhash. */
  readonly sigVerify?: boolean;
  /** Run against the latest blockhash instead of the transaction's own (default false). */
  readonly replaceRecentBlockhash?: boolean;
}

export interface TransactionProcessor {
  send(wire: Uint8Array, options?: { readonly preflight?: boolean }): string;
  simulate(wire: Uint8Array, options?: SimulateOptions): SimulationResult;
}

export interface TransactionProcessorDeps {
  readonly svm: LiteSVM;
  readonly clock: SlotClock;
  readonly blockhashes: BlockhashQueue;
  readonly history: TransactionHistory;
  readonly emitter: ClusterEmitter;
  /**
   * Called with each landed transaction and the accounts it may have written, after LiteSVM executed
   * it and before it is recorded, announced or answered: the chain store makes it durable here. A throw
   * stops the send (the caller gets the error, nothing is announced).
   */
  readonly onLanding?: (record: TransactionRecord, written: readonly string[]) => void;
}

const ADDRESS_LOOKUP_TABLE_PROGRAM = "AddressLookupTab1e1111111111111111111111111";
const LOOKUP_TABLE_META_SIZE = 56;
const base58 = getBase58Decoder();

export function createTransactionProcessor(deps: TransactionProcessorDeps): TransactionProcessor {
  const { svm, clock, blockhashes, history, emitter } = deps;

  const readAccount = (address: string) => {
    const account = svm.getAccount(address as Address);
    return account.exists
      ? { owner: account.programAddress as string, data: account.data as Uint8Array }
      : null;
  };
  const ageValid = (tx: DecodedTransaction) =>
    isTransactionAgeValid(tx, blockhashes, readAccount, (bytes) => base58.decode(bytes));
  // The status cache, as Agave checks it after the age: by signature and by message.
  const alreadyProcessed = (tx: DecodedTransaction) =>
    history.has(tx.signature) || history.hasMessage(tx.transaction.messageBytes);

  const processor: TransactionProcessor = {
    send(wire, options = {}) {
      const tx = decode(wire);
      if (!ageValid(tx)) {
        throw new SubmissionRejected("blockhash_not_found", `Blockhash not found: ${tx.recentBlockhash}`);
      }
      if (alreadyProcessed(tx)) {
        throw new SubmissionRejected(
          "already_processed",
          `Transaction ${tx.signature} was already processed`,
        );
      }
      if (options.preflight === true) {
        const simulation = processor.simulate(wire, { sigVerify: true });
        if (simulation.err !== null) {
          throw new SubmissionRejected(
            "preflight_failed",
            `Transaction simulation failed: ${JSON.stringify(simulation.err)}`,
            simulation,
          );
        }
      }

      const loaded = resolveLoadedAddresses(tx, readAccount);
      const keys = [...tx.staticAccounts, ...loaded.writable, ...loaded.readonly];
      const preBalances = keys.map((key) => svm.getBalance(key as Address) ?? 0n);
      const fee = transactionFee(tx);
      let result: TransactionMetadata | FailedTransactionMetadata;
      try {
        result = svm.sendTransaction(tx.transaction);
      } catch (cause) {
        // litesvm's wrapper asserts every signature is present before calling the runtime.
        if (!isSolanaError(cause, SOLANA_ERROR__TRANSACTION__SIGNATURES_MISSING)) throw cause;
        throw new SubmissionRejected(
          "signature_failure",
          `Transaction is not fully signed: ${cause.message}`,
        );
      }
      const outcome = toOutcome(result, fee);
      if (outcome.err !== null && svm.getTransaction(tx.signature as Signature) === null) {
        throw rejectionFor(outcome.err, outcome);
      }

      const record: TransactionRecord = {
        ...outcome,
        signature: tx.signature,
        slot: clock.slot,
        blockTime: clock.unixTimestamp,
        wire: Uint8Array.from(wire),
        accountKeys: [...tx.staticAccounts],
        loadedAddresses: loaded,
        preBalances,
        postBalances: keys.map((key) => svm.getBalance(key as Address) ?? 0n),
        innerInstructions: innerInstructionsOf(result),
      };
      deps.onLanding?.(record, writtenAccounts(tx, loaded.writable));
      history.add(record);
      emitter.emit("transaction", record);
      return record.signature;
    },

    simulate(wire, options = {}) {
      const sigVerify = options.sigVerify ?? false;
      const replace = options.replaceRecentBlockhash ?? false;
      if (sigVerify && replace) throw new Error("sigVerify may not be used with replaceRecentBlockhash");
      const tx = decode(wire);
      const fee = transactionFee(tx);
      let transaction = tx.transaction;
      let replacementBlockhash: string | null = null;
      const refused = (err: TransactionErrorJson, logs: string[] = []): SimulationResult => ({
        ...emptyOutcome(err, fee),
        logs,
        replacementBlockhash,
        innerInstructions: [],
        accountKeys: [],
      });
      if (replace) {
        replacementBlockhash = blockhashes.latest().blockhash;
        transaction = withRecentBlockhash(tx, replacementBlockhash);
      } else if (!ageValid(tx)) {
        return refused("BlockhashNotFound");
      } else if (alreadyProcessed(tx)) {
        // Agave's simulation runs the bank's age and status-cache checks whatever sigVerify says; on the
        // latest blockhash the message is another one, so a replaced simulation is not checked here.
        return refused("AlreadyProcessed");
      }
      const loaded = resolveLoadedAddresses(tx, readAccount);
      // The cluster always verifies signatures; simulation may opt out for this one call.
      if (!sigVerify) svm.withSigverify(false);
      try {
        const result = svm.simulateTransaction(transaction);
        const meta = result instanceof FailedTransactionMetadata ? result : result.meta();
        return {
          ...toOutcome(meta, fee),
          replacementBlockhash,
          innerInstructions: innerInstructionsOf(meta),
          accountKeys: [...tx.staticAccounts, ...loaded.writable, ...loaded.readonly],
        };
      } catch (cause) {
        if (!isSolanaError(cause, SOLANA_ERROR__TRANSACTION__SIGNATURES_MISSING)) throw cause;
        return refused("SignatureFailure", [cause.message]);
      } finally {
        svm.withSigverify(true);
      }
    },
  };
  return processor;
}

/**
 * The accounts a transaction can write: the writable static keys (message header rules) and the
 * writable loaded ones, less the programs it invokes (the runtime demotes those to read-only).
 */
function writtenAccounts(tx: DecodedTransaction, loadedWritable: readonly string[]): string[] {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = tx.header;
  const invoked = new Set(tx.instructions.map((ix) => tx.staticAccounts[ix.programIndex]));
  const count = tx.staticAccounts.length;
  const written = tx.staticAccounts.filter((key, index) => {
    const writable =
      index < numRequiredSignatures
        ? index < numRequiredSignatures - numReadonlySignedAccounts
        : index < count - numReadonlyUnsignedAccounts;
    return writable && !invoked.has(key);
  });
  return [...written, ...loadedWritable];
}

function decode(wire: Uint8Array): DecodedTransaction {
  try {
    return decodeWireTransaction(wire);
  } catch (cause) {
    if (cause instanceof MalformedTransaction) throw new SubmissionRejected("malformed", cause.message);
    throw cause;
  }
}

function toOutcome(result: TransactionMetadata | FailedTransactionMetadata, fee: bigint): ExecutionOutcome {
  const failed = result instanceof FailedTransactionMetadata;
  const meta = failed ? result.meta() : result;
  const returnData = meta.returnData();
  const data = Uint8Array.from(returnData.data());
  return {
    err: failed ? toTransactionErrorJson(result.err()) : null,
    logs: meta.logs(),
    computeUnitsConsumed: meta.computeUnitsConsumed(),
    fee,
    // Solana reports return data only when some was set.
    returnData: data.length === 0 ? null : { programId: base58.decode(returnData.programId()), data },
  };
}

function innerInstructionsOf(
  result: TransactionMetadata | FailedTransactionMetadata,
): InnerInstructionGroup[] {
  const meta = result instanceof FailedTransactionMetadata ? result.meta() : result;
  return meta
    .innerInstructions()
    .map((group, index) => ({
      index,
      instructions: group.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: [...ix.accounts()],
          data: Uint8Array.from(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((group) => group.instructions.length > 0);
}

function emptyOutcome(err: TransactionErrorJson, fee: bigint): ExecutionOutcome {
  return { err, logs: [], computeUnitsConsumed: 0n, fee, returnData: null };
}

function rejectionFor(err: TransactionErrorJson, outcome: ExecutionOutcome): SubmissionRejected {
  const text = typeof err === "string" ? err : JSON.stringify(err);
  switch (err) {
    case "SignatureFailure":
    case "MissingSignatureForFee":
      return new SubmissionRejected(
        "signature_failure",
        `Transaction signature verification failure (${text})`,
        outcome,
      );
    case "AlreadyProcessed":
      return new SubmissionRejected("already_processed", "Transaction was already processed", outcome);
    case "BlockhashNotFound":
      return new SubmissionRejected("blockhash_not_found", "Blockhash not found", outcome);
    case "SanitizeFailure":
    case "UnsupportedVersion":
    case "InvalidAccountIndex":
    case "AccountLoadedTwice":
      return new SubmissionRejected("malformed", `Transaction failed to sanitize (${text})`, outcome);
    default:
      return new SubmissionRejected("load_failed", `Transaction could not be loaded: ${text}`, outcome);
  }
}

/**
 * The addresses a v0 transaction loads from lookup tables, read from the tables' current contents.
 * Empty when a table is missing or an index is out of range: LiteSVM then refuses the transaction.
 */
function resolveLoadedAddresses(
  tx: DecodedTransaction,
  readAccount: (address: string) => { owner: string; data: Uint8Array } | null,
): { writable: string[]; readonly: string[] } {
  const writable: string[] = [];
  const readonly: string[] = [];
  for (const lookup of tx.lookups) {
    const table = readAccount(lookup.table);
    if (table === null || table.owner !== ADDRESS_LOOKUP_TABLE_PROGRAM) return { writable: [], readonly: [] };
    const at = (index: number) => {
      const start = LOOKUP_TABLE_META_SIZE + index * 32;
      if (start + 32 > table.data.length) return null;
      return base58.decode(table.data.subarray(start, start + 32));
    };
    for (const [indexes, into] of [
      [lookup.writableIndexes, writable],
      [lookup.readonlyIndexes, readonly],
    ] as const) {
      for (const index of indexes) {
        const key = at(index);
        if (key === null) return { writable: [], readonly: [] };
        into.push(key);
      }
    }
  }
  // Solana orders loaded keys: all writable (table by table), then all read-only.
  return { writable, readonly };
}
