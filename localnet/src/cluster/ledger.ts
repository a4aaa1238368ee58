/**
 * A ledger directory: the embedded cluster's chain on disk, so a localnet restart continues the same
 * chain. `openLedger` loads what is there (or finds the directory empty: a new chain); the cluster
 * then reports every landed transaction and every clock move, and each is journaled durably before
 * the cluster goes on. Every so often (journal size, slots passed, a clean stop) the whole chain is
 * written as a new snapshot, the history older than the retention is dropped, and the journal
 * restarts. See ledger-files.ts for the framing and the localnet README for the format.
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
import type { TransactionRecord } from "./cluster-port";
import {
  createJournalFile,
  JOURNAL_FILE,
  type JournalWriter,
  LedgerError,
  openJournalFile,
  readJournalFile,
  readSnapshotFile,
  SNAPSHOT_FILE,
  writeSnapshotFile,
} from "./ledger-files";
import { decodeLedgerJson, encodeLedgerJson } from "./ledger-json";
import {
  type JournalEntry,
  type LedgerSnapshot,
  type LoadedChain,
  replayJournal,
  type StoredAccount,
} from "./ledger-state";

/** A day of slots at 400 ms. */
export const DEFAULT_HISTORY_SLOTS = 216_000n;
/** The journal is folded into a new snapshot once it holds this much... */
export const DEFAULT_SNAPSHOT_JOURNAL_BYTES = 64 * 1024 * 1024;
/** ...or this many slots passed since the last snapshot (an hour at 400 ms). */
export const DEFAULT_SNAPSHOT_EVERY_SLOTS = 9_000n;
const LOCK_FILE = "ledger.lock";

export interface LedgerSettings {
  readonly dir: string;
  /** Transaction history older than this many slots is dropped at each snapshot. */
  readonly historySlots?: bigint;
  readonly snapshotJournalBytes?: number;
  readonly snapshotEverySlots?: bigint;
}

export interface Ledger {
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
   * a ledger (a crash before then leaves it empty).
   */
  begin(capture: () => Omit<LedgerSnapshot, "sequence">): void;
  /** Journals a landed transaction with its written accounts' post-state; returns once on disk. */
  recordTransaction(record: TransactionRecord, accounts: readonly StoredAccount[]): void;
  /** Journals a clock move; writes a snapshot instead when one is due (never mid-transaction). */
  recordClock(slot: bigint, unixMs: number): void;
  /** Writes a snapshot now and restarts the journal. */
  snapshot(): void;
  /** Snapshot, then release the files. The cluster must not be used to land anything after. */
  close(): void;
}

/** Opens (creating if needed) the ledger directory and loads the chain in it, if any. */
export function openLedger(settings: LedgerSettings): Ledger {
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
        throw new LedgerError(
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
    throw new LedgerError(journalPath, `has no ${SNAPSHOT_FILE} beside it to continue`);
  }

  let sequence = loaded?.sequence ?? 0n;
  let journal: JournalWriter | null = null;
  let capture: (() => Omit<LedgerSnapshot, "sequence">) | null = null;
  let lastSnapshotSlot = loaded?.clock.slot ?? 0n;
  let failure: unknown = null;
  let closed = false;

  const append = (
    entry: JournalEntry extends infer E ? (E extends unknown ? Omit<E, "sequence"> : never) : never,
  ) => {
    if (failure !== null) {
      throw new Error(
        `the ledger at ${dir} failed to write earlier; restart the localnet to continue from what is on disk`,
        { cause: failure },
      );
    }
    if (closed)
      throw new Error(`the ledger at ${dir} is closed (the cluster was stopped); nothing more can land`);
    // Before `begin` (a new chain's genesis) nothing is journaled: the first snapshot holds it all.
    if (journal === null) return;
    try {
      journal.append(encodeLedgerJson({ ...entry, sequence: sequence + 1n }));
      sequence += 1n;
    } catch (error) {
      // Memory is now ahead of the disk; answering anything more would promise what a restart loses.
      failure = error;
      throw error;
    }
  };

  const ledger: Ledger = {
    dir,
    historySlots,
    loaded,
    droppedTornBytes,
    begin(captureChain) {
      capture = captureChain;
      if (loaded === null) ledger.snapshot();
      else journal = openJournalFile(journalPath, journalTail || writeFreshJournal());
    },
    recordTransaction(record, accounts) {
      append({ kind: "transaction", record, accounts });
    },
    recordClock(slot, unixMs) {
      if (journal !== null && (journal.size >= snapshotBytes || slot - lastSnapshotSlot >= snapshotEvery)) {
        ledger.snapshot();
        return;
      }
      append({ kind: "clock", slot, unixMs });
    },
    snapshot() {
      if (capture === null) throw new Error("ledger.snapshot before begin");
      if (failure !== null) return;
      const chain = capture();
      try {
        writeSnapshotFile(dir, encodeLedgerJson({ ...chain, sequence }));
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
      ledger.snapshot();
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
  return ledger;
}

function decodeSnapshot(path: string): LedgerSnapshot {
  const value = decodePayload(path, readSnapshotFile(path), "its contents");
  const snapshot = value as Partial<LedgerSnapshot>;
  if (
    typeof snapshot.sequence !== "bigint" ||
    typeof snapshot.identity?.genesisHash !== "string" ||
    typeof snapshot.clock?.slot !== "bigint" ||
    !Array.isArray(snapshot.accounts) ||
    !Array.isArray(snapshot.history)
  ) {
    throw new LedgerError(path, "does not hold a chain snapshot this localnet can read");
  }
  return snapshot as LedgerSnapshot;
}

function decodeEntry(path: string, payload: Buffer, index: number): JournalEntry {
  const entry = decodePayload(path, payload, `record ${index}`) as Partial<JournalEntry>;
  const valid =
    typeof entry.sequence === "bigint" &&
    ((entry.kind === "clock" && typeof entry.slot === "bigint" && typeof entry.unixMs === "number") ||
      (entry.kind === "transaction" &&
        typeof entry.record?.signature === "string" &&
        Array.isArray(entry.accounts)));
  if (!valid) throw new LedgerError(path, `has a record (${index}) this localnet cannot read`);
  return entry as JournalEntry;
}

function decodePayload(path: string, payload: Buffer, what: string): unknown {
  try {
    return decodeLedgerJson(payload);
  } catch {
    throw new LedgerError(path, `is corrupt (${what} is not readable)`);
  }
}

function checkSequence(path: string, after: bigint, entries: readonly JournalEntry[]): void {
  let expected = after + 1n;
  for (const entry of entries) {
    if (entry.sequence !== expected) {
      throw new LedgerError(path, `skips from entry ${expected - 1n} to ${entry.sequence}`);
    }
    expected += 1n;
  }
}

/**
 * One process per ledger: two writers would interleave journals. A lock left by a process that is
 * gone (SIGKILL) is taken over.
 */
function lockDirectory(dir: string): void {
  const path = join(dir, LOCK_FILE);
  try {
    closeSync(openSync(path, "wx"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(readFileSync(path, "utf8").trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new Error(`the ledger at ${dir} is in use by process ${holder}; stop it first`);
    }
  }
  writeFileSync(path, `${process.pid}\n`);
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
