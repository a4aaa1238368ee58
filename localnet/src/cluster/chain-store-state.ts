/**
 * What a chain store holds, and how a chain is put back together from it: a snapshot of the whole chain,
 * then the journal's entries since, in order. Accounts are stored as a validator's accounts db holds
 * them (address, lamports, owner, executable, data); a transaction entry carries the post-state of
 * every account it could write, so replaying it is setting those accounts, not executing it again.
 */
import { type Address, address, lamports } from "@solana/kit";
import type { LiteSVM } from "litesvm";
import { type BlockhashQueue, createBlockhashQueue } from "./blockhash-queue";
import type { TransactionRecord } from "./cluster-port";
import type { ProgramDeployment } from "./deploy-program";
import { nextBlockhash, type SlotClockState } from "./slot-clock";

/** Owners whose accounts LiteSVM makes itself (sysvars, builtins): never stored, never restored. */
const RUNTIME_OWNERS = new Set([
  "Sysvar1111111111111111111111111111111111111",
  "NativeLoader1111111111111111111111111111111",
]);
const SLOT_HASHES_MAX = 512;

export interface StoredAccount {
  readonly address: string;
  /** 0 = the account was closed. */
  readonly lamports: bigint;
  readonly owner: string;
  readonly executable: boolean;
  readonly data: Uint8Array;
}

/** Facts about the chain fixed at its genesis, which the cluster reports. */
export interface ChainIdentity {
  readonly genesisHash: string;
  readonly feeReserve: string;
  readonly deployment: ProgramDeployment | null;
}

export interface ChainSnapshot {
  /** The sequence number of the last journal entry this snapshot includes (0: none yet). */
  readonly sequence: bigint;
  readonly identity: ChainIdentity;
  readonly clock: SlotClockState;
  readonly accounts: readonly StoredAccount[];
  /** The transaction history in landing order (what the retention kept). */
  readonly history: readonly TransactionRecord[];
}

export type JournalEntry =
  | {
      readonly kind: "transaction";
      readonly sequence: bigint;
      readonly record: TransactionRecord;
      readonly accounts: readonly StoredAccount[];
    }
  | { readonly kind: "clock"; readonly sequence: bigint; readonly slot: bigint; readonly unixMs: number };

/** A chain as loaded: ready to be put into a new LiteSVM and cluster. */
export interface LoadedChain {
  readonly sequence: bigint;
  readonly identity: ChainIdentity;
  readonly clock: SlotClockState;
  readonly accounts: ReadonlyMap<string, StoredAccount>;
  readonly history: readonly TransactionRecord[];
}

/** Applies `entries` (already filtered to those after the snapshot, in order) to `snapshot`. */
export function replayJournal(snapshot: ChainSnapshot, entries: readonly JournalEntry[]): LoadedChain {
  const accounts = new Map(snapshot.accounts.map((account) => [account.address, account]));
  const history = [...snapshot.history];
  let clock = snapshot.clock;
  let sequence = snapshot.sequence;
  for (const entry of entries) {
    sequence = entry.sequence;
    if (entry.kind === "clock") {
      clock = moveClock(clock, entry.slot, entry.unixMs);
      continue;
    }
    history.push(entry.record);
    for (const account of entry.accounts) {
      if (account.lamports === 0n) accounts.delete(account.address);
      else accounts.set(account.address, account);
    }
  }
  return { sequence, identity: snapshot.identity, clock, accounts, history };
}

/** The clock after slots up to `slot` were produced (blockhashes follow their chain). */
function moveClock(clock: SlotClockState, slot: bigint, unixMs: number): SlotClockState {
  const recentHashes = [...clock.recentHashes];
  let latest = recentHashes[0]?.hash ?? "";
  for (let next = clock.slot + 1n; next <= slot; next++) {
    latest = nextBlockhash(latest, next);
    recentHashes.unshift({ slot: next, hash: latest });
    if (recentHashes.length > SLOT_HASHES_MAX) recentHashes.pop();
  }
  return {
    genesisSlot: clock.genesisSlot,
    slot: slot > clock.slot ? slot : clock.slot,
    unixMs,
    recentHashes,
  };
}

/** The account at `addressText` as stored (lamports 0 when it is gone), or null if never stored. */
export function readStoredAccount(svm: LiteSVM, addressText: string): StoredAccount | null {
  const account = svm.getAccount(address(addressText));
  if (!account.exists || account.lamports === 0n) {
    return {
      address: addressText,
      lamports: 0n,
      owner: "11111111111111111111111111111111",
      executable: false,
      data: new Uint8Array(0),
    };
  }
  if (RUNTIME_OWNERS.has(account.programAddress)) return null;
  return {
    address: addressText,
    lamports: account.lamports,
    owner: account.programAddress,
    executable: account.executable,
    data: Uint8Array.from(account.data),
  };
}

/**
 * Writes `accounts` into a fresh LiteSVM. Executable accounts go last: LiteSVM compiles a program
 * when its account is set, and an upgradeable program's code is in its ProgramData account, which
 * must be there by then. (Programs restored this way execute without `addProgram`.)
 */
export function restoreAccounts(svm: LiteSVM, accounts: Iterable<StoredAccount>): void {
  const all = [...accounts];
  for (const account of [...all.filter((a) => !a.executable), ...all.filter((a) => a.executable)]) {
    svm.setAccount({
      address: account.address as Address,
      lamports: lamports(account.lamports),
      programAddress: account.owner as Address,
      executable: account.executable,
      data: account.data,
      space: BigInt(account.data.length),
    });
  }
}

/** The blockhash queue as it stood: the recent hashes still young enough to be valid. */
export function blockhashQueueOf(clock: SlotClockState): BlockhashQueue {
  const [oldest, ...newer] = [...clock.recentHashes].reverse();
  if (oldest === undefined) throw new Error("a stored chain's clock has no blockhash");
  const entry = (hash: { slot: bigint; hash: string }) => ({
    blockhash: hash.hash,
    slot: hash.slot,
    blockHeight: hash.slot - clock.genesisSlot,
  });
  const queue = createBlockhashQueue(entry(oldest));
  for (const hash of newer) queue.push(entry(hash));
  return queue;
}

/**
 * Where a loaded chain's clock resumes: its slot, and its time — moved on to the wall clock when a
 * timer drives it (the localnet was down for a while; a chain's time does not stand still), kept
 * exactly when the clock is manual, so tests stay deterministic.
 */
export function resumedClock(loaded: LoadedChain, slotMs: number): SlotClockState {
  const unixMs = slotMs > 0 ? Math.max(loaded.clock.unixMs, Date.now()) : loaded.clock.unixMs;
  return { ...loaded.clock, unixMs };
}
