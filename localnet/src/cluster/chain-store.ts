/**
 * The chain store: the embedded cluster's chain on disk, in the localnet directory, so a localnet
 * restart continues the same chain. `openChainStore` loads what is there (or finds the directory
 * empty: a new chain); the cluster then reports every landed transaction and every clock move, and
 * each is journaled durably before the cluster goes on. Every so often (journal size, slots passed,
 * a clean stop) the whole chain is written as a new snapshot, the history older than the retention
 * is dropped, and the journal restarts. See chain-store-files.ts for the framing and the localnet
 * README for the format.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  ChainStoreError,
  createJournalFile,
  JOURNAL_FILE,
  type JournalWriter,
  openJournalFile,
  readJournalFile,
  readSnapshotFile,
  SNAPSHOT_FILE,
  writeSnapshotFile,
} from "./chain-store-files";
import { decodeChainStoreJson, encodeChainStoreJson } from "./chain-store-json";
import {
  type ChainSnapshot,
  type JournalEntry,
  type LoadedChain,
  replayJournal,
  type StoredAccount,
} from "./chain-store-state";
import type { TransactionRecord } from "./cluster-port";

/** A day of slots at 400 ms. */
export const DEFAULT_HISTORY_SLOTS = 216_000n;
/** The journal is folded into a new snapshot once it holds this much... */
export const DEFAULT_SNAPSHOT_JOURNAL_BYTES = 64 * 1024 * 1024;
/** ...or this many slots passed since the last snapshot (an hour at 400 ms). */
export const DEFAULT_SNAPSHOT_EVERY_SLOTS = 9_000n;
const LOCK_FILE = "chain-store.lock";
/**
 * The lock's name before the store had a word of its own (docs/glossary.md): a localnet of that
 * version may still be running on the directory, and one it left behind must not stay there.
 */
const FORMER_LOCK_FILE = "ledger.lock";

export interface ChainStoreSettings {
  readonly dir: string;
  /** Transaction history older than this many slots is dropped at each snapshot. */
  readonly historySlots?: bigint;
  readonly snapshotJournalBytes?: number;
  readonly snapshotEverySlots?: bigint;
}

export interface ChainStore {
  readonly dir: string;
  readonly historySlots: bigint;
  /** The chain found in the directory; null when it was empty (the caller makes a genesis). */
  readonly loaded: LoadedChain | null;
  /** Bytes of a torn last journal record dropped at load (0 when the journal ended cleanly). */
  readonly droppedTornBytes: number;
  /**
   * Starts journaling. `capture` returns the whole chain as it stands, having dropped the history
   * older than `historySlots` first;
   * for a new chain it is written at once as the first snapshot, which is what makes the directory
   * a chain store (a crash before then leaves it empty).
   */
  begin(capture: () => Omit<ChainSnapshot, "sequence">): void;
  /** Journals a landed transaction with its written accounts' post-state; returns once on disk. */
  recordTransaction(record: TransactionRecord, accounts: readonly StoredAccount[]): void;
  /** Journals a clock move; writes a snapshot instead when one is due (never mid-transaction). */
  recordClock(slot: bigint, unixMs: number): void;
  /** Writes a snapshot now and restarts the journal. */
  snapshot(): void;
  /** Snapshot, then release the files. The cluster must not be used to land anything after. */
  close(): void;
}

/** Opens (creating if needed) the localnet directory and loads the chain in it, if any. */
export function openChainStore(settings: ChainStoreSettings): ChainStore {
  const { dir } = settings;
  const historySlots = settings.historySlots ?? DEFAULT_HISTORY_SLOTS;
  // A transaction stays valid for 150 blocks; its signature must stay known at least that long.
  if (historySlots < 151n)
    throw new RangeError(`history retention must be >= 151 slots, got ${historySlots}`);
  const snapshotBytes = settings.snapshotJournalBytes ?? DEFAULT_SNAPSHOT_JOURNAL_BYTES;
  const snapshotEvery = settings.snapshotEverySlots ?? DEFAULT_SNAPSHOT_EVERY_SLOTS;
  mkdirSync(dir, { recursive: true });
  lockDirectory(dir);
  for (const name of readdirSync(dir)) if (name.endsWith(".tmp")) rmSync(join(dir, name));

  const snapshotPath = join(dir, SNAPSHOT_FILE);
  const journalPath = join(dir, JOURNAL_FILE);
  let loaded: LoadedChain | null = null;
  let journalTail = 0;
  let droppedTornBytes = 0;
  if (existsSync(snapshotPath)) {
    const snapshot = decodeSnapshot(snapshotPath);
    let entries: JournalEntry[] = [];
    if (existsSync(journalPath)) {
      const journal = readJournalFile(journalPath);
      if (journal.baseSequence > snapshot.sequence) {
        throw new ChainStoreError(
          journalPath,
          `continues snapshot ${journal.baseSequence} but ${snapshotPath} is snapshot ${snapshot.sequence}`,
        );
      }
      entries = journal.records
        .map((payload, index) => decodeEntry(journalPath, payload, index))
        .filter((entry) => entry.sequence > snapshot.sequence);
      checkSequence(journalPath, snapshot.sequence, entries);
      journalTail = journal.validLength;
      droppedTornBytes = journal.tornBytes;
    }
    loaded = replayJournal(snapshot, entries);
  } else if (existsSync(journalPath)) {
    throw new ChainStoreError(journalPath, `has no ${SNAPSHOT_FILE} beside it to continue`);
  }

  let sequence = loaded?.sequence ?? 0n;
  let journal: JournalWriter | null = null;
  let capture: (() => Omit<ChainSnapshot, "sequence">) | null = null;
  let lastSnapshotSlot = loaded?.clock.slot ?? 0n;
  let failure: unknown = null;
  let closed = false;

  const append = (
    entry: JournalEntry extends infer E ? (E extends unknown ? Omit<E, "sequence"> : never) : never,
  ) => {
    if (failure !== null) {
      throw new Error(
        `the chain store at ${dir} failed to write earlier; restart the localnet to continue from what is on disk`,
        { cause: failure },
      );
    }
    if (closed)
      throw new Error(`the chain store at ${dir} is closed (the cluster was stopped); nothing more can land`);
    // Before `begin` (a new chain's genesis) nothing is journaled: the first snapshot holds it all.
    if (journal === null) return;
    try {
      journal.append(encodeChainStoreJson({ ...entry, sequence: sequence + 1n }));
      sequence += 1n;
    } catch (error) {
      // Memory is now ahead of the disk; answering anything more would promise what a restart loses.
      failure = error;
      throw error;
    }
  };

  const store: ChainStore = {
    dir,
    historySlots,
    loaded,
    droppedTornBytes,
    begin(captureChain) {
      capture = captureChain;
      if (loaded === null) store.snapshot();
      else journal = openJournalFile(journalPath, journalTail || writeFreshJournal());
    },
    recordTransaction(record, accounts) {
      append({ kind: "transaction", record, accounts });
    },
    recordClock(slot, unixMs) {
      if (journal !== null && (journal.size >= snapshotBytes || slot - lastSnapshotSlot >= snapshotEvery)) {
        store.snapshot();
        return;
      }
      append({ kind: "clock", slot, unixMs });
    },
    snapshot() {
      if (capture === null) throw new Error("chainStore.snapshot before begin");
      if (failure !== null) return;
      const chain = capture();
      try {
        writeSnapshotFile(dir, encodeChainStoreJson({ ...chain, sequence }));
        journal?.close();
        journal = createJournalFile(dir, sequence);
      } catch (error) {
        // The journal may be closed or half replaced: stop landing anything, as for a failed append.
        failure = error;
        throw error;
      }
      lastSnapshotSlot = chain.clock.slot;
    },
    close() {
      if (closed || journal === null) return;
      store.snapshot();
      journal?.close();
      journal = null;
      closed = true;
      unlockDirectory(dir);
    },
  };

  // A snapshot without a journal: a new chain's first snapshot is written before its journal, so a
  // crash between the two leaves it alone. Start a journal continuing it.
  function writeFreshJournal(): number {
    createJournalFile(dir, sequence).close();
    return readJournalFile(journalPath).validLength;
  }
  return store;
}

function decodeSnapshot(path: string): ChainSnapshot {
  const value = decodePayload(path, readSnapshotFile(path), "its contents");
  const snapshot = value as Partial<ChainSnapshot>;
  if (
    typeof snapshot.sequence !== "bigint" ||
    typeof snapshot.identity?.genesisHash !== "string" ||
    typeof snapshot.clock?.slot !== "bigint" ||
    !Array.isArray(snapshot.accounts) ||
    !Array.isArray(snapshot.history)
  ) {
    throw new ChainStoreError(path, "does not hold a chain snapshot this localnet can read");
  }
  return snapshot as ChainSnapshot;
}

function decodeEntry(path: string, payload: Buffer, index: number): JournalEntry {
  const entry = decodePayload(path, payload, `record ${index}`) as Partial<JournalEntry>;
  const valid =
    typeof entry.sequence === "bigint" &&
    ((entry.kind === "clock" && typeof entry.slot === "bigint" && typeof entry.unixMs === "number") ||
      (entry.kind === "transaction" &&
        typeof entry.record?.signature === "string" &&
        Array.isArray(entry.accounts)));
  if (!valid) throw new ChainStoreError(path, `has a record (${index}) this localnet cannot read`);
  return entry as JournalEntry;
}

function decodePayload(path: string, payload: Buffer, what: string): unknown {
  try {
    return decodeChainStoreJson(payload);
  } catch {
    throw new ChainStoreError(path, `is corrupt (${what} is not readable)`);
  }
}

function checkSequence(path: string, after: bigint, entries: readonly JournalEntry[]): void {
  let expected = after + 1n;
  for (const entry of entries) {
    if (entry.sequence !== expected) {
      throw new ChainStoreError(path, `skips from entry ${expected - 1n} to ${entry.sequence}`);
    }
    expected += 1n;
  }
}

/**
 * One process per chain store: two writers would interleave journals. A lock left by a process that is
 * gone (SIGKILL) is taken over; so is the former name's lock, once its holder is gone too.
 */
function lockDirectory(dir: string): void {
  const path = join(dir, LOCK_FILE);
  try {
    closeSync(openSync(path, "wx"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    refuseLiveHolder(dir, path);
  }
  const former = join(dir, FORMER_LOCK_FILE);
  if (existsSync(former)) {
    refuseLiveHolder(dir, former, () => unlockDirectory(dir));
    rmSync(former, { force: true });
  }
  writeFileSync(path, `${process.pid}\n`);
}

/** Throws (after `release`) when the pid in lock file `path` is another process that is alive. */
function refuseLiveHolder(dir: string, path: string, release: () => void = () => {}): void {
  const holder = Number(readFileSync(path, "utf8").trim());
  if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
    release();
    throw new Error(`the chain store at ${dir} is in use by process ${holder}; stop it first`);
  }
}

function unlockDirectory(dir: string): void {
  rmSync(join(dir, LOCK_FILE), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
