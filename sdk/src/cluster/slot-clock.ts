/**
 * The slot clock: the one place the embedded chain's slot and time move. LiteSVM has no notion of
 * time passing, so without this a transaction would be `processed` forever and `pending -> confirmed`
 * could never be observed.
 *
 * Each slot: slot and block height + 1 (no skipped slots, so block height = slot - genesis slot),
 * a new blockhash (LiteSVM's, so durable nonces advance with it) registered in the blockhash queue,
 * SlotHashes gets the new slot, and the Clock sysvar's `slot` and `unix_timestamp` follow.
 *
 * Time: every slot adds `msPerSlot` to the cluster's unix time (400 ms by default; `slotMs` when a
 * timer drives the clock), so in timer mode it tracks the wall clock loosely (a busy event loop makes
 * it lag; nothing depends on it matching). `setUnixTime` and `warpTime` move time without producing
 * slots, so a test can stand at 23:59:59 UTC or jump a day without expiring every blockhash.
 */
import type { LiteSVM } from "litesvm";
import type { BlockhashQueue } from "./blockhash-queue";

/** Solana keeps the hashes of the last 512 slots in the SlotHashes sysvar. */
const SLOT_HASHES_MAX = 512;
export const DEFAULT_MS_PER_SLOT = 400;

export interface SlotTick {
  readonly slot: bigint;
  readonly blockHeight: bigint;
  readonly blockhash: string;
  readonly unixTimestamp: bigint;
}

export interface SlotClock {
  readonly slot: bigint;
  readonly blockHeight: bigint;
  /** The slot the cluster started at (block height 0). */
  readonly genesisSlot: bigint;
  /** Cluster time, unix seconds (what the Clock sysvar says). */
  readonly unixTimestamp: bigint;
  /** Produces `slots` new slots now (default 1), in order, and notifies after the sysvars moved. */
  advance(slots?: number): void;
  /** Sets the cluster's unix time (seconds); takes effect in the current slot. May go backwards. */
  setUnixTime(seconds: bigint | number): void;
  /** Moves the cluster's unix time by `seconds` (may be negative) without producing slots. */
  warpTime(seconds: bigint | number): void;
  /** Starts producing one slot every `slotMs` ms (no-op when already running or slotMs is 0). */
  start(): void;
  /** Stops the timer; `advance` keeps working. */
  stop(): void;
  readonly running: boolean;
}

export interface SlotClockOptions {
  readonly svm: LiteSVM;
  readonly blockhashes: BlockhashQueue;
  /** Timer period; 0 = manual (only `advance` produces slots). */
  readonly slotMs: number;
  /** Unix time of the first slot, in ms. */
  readonly startUnixMs: number;
  /** Called once per `advance`, after all sysvars reflect the last tick. */
  readonly onSlots: (ticks: readonly SlotTick[]) => void;
}

/** A clock positioned at LiteSVM's current slot, with the Clock sysvar set to `startUnixMs`. */
export function createSlotClock(options: SlotClockOptions): SlotClock {
  const { svm, blockhashes } = options;
  const msPerSlot = options.slotMs > 0 ? options.slotMs : DEFAULT_MS_PER_SLOT;
  const genesisSlot = svm.getClock().slot;
  let slot = genesisSlot;
  let unixMs = options.startUnixMs;
  let timer: NodeJS.Timeout | null = null;
  const slotHashes: { slot: bigint; hash: string }[] = [{ slot, hash: svm.latestBlockhash() }];

  const unixTimestamp = () => BigInt(Math.floor(unixMs / 1000));
  const writeClock = () => {
    const clock = svm.getClock();
    clock.slot = slot;
    clock.unixTimestamp = unixTimestamp();
    svm.setClock(clock);
  };
  writeClock();
  svm.setSlotHashes(slotHashes);

  const clock: SlotClock = {
    get slot() {
      return slot;
    },
    get blockHeight() {
      return slot - genesisSlot;
    },
    genesisSlot,
    get unixTimestamp() {
      return unixTimestamp();
    },
    get running() {
      return timer !== null;
    },
    advance(slots = 1) {
      if (!Number.isInteger(slots) || slots < 0) throw new RangeError(`cannot advance ${slots} slots`);
      if (slots === 0) return;
      const ticks: SlotTick[] = [];
      for (let i = 0; i < slots; i++) {
        slot += 1n;
        unixMs += msPerSlot;
        svm.expireBlockhash();
        const blockhash = svm.latestBlockhash();
        const tick = { slot, blockHeight: slot - genesisSlot, blockhash, unixTimestamp: unixTimestamp() };
        blockhashes.push(tick);
        slotHashes.unshift({ slot, hash: blockhash });
        ticks.push(tick);
      }
      slotHashes.length = Math.min(slotHashes.length, SLOT_HASHES_MAX);
      writeClock();
      svm.setSlotHashes(slotHashes);
      options.onSlots(ticks);
    },
    setUnixTime(seconds) {
      unixMs = Number(seconds) * 1000;
      writeClock();
    },
    warpTime(seconds) {
      unixMs += Number(seconds) * 1000;
      writeClock();
    },
    start() {
      if (timer !== null || options.slotMs <= 0) return;
      timer = setInterval(() => clock.advance(1), options.slotMs);
      // The cluster must not keep a process alive on its own; servers hold it open, tests call stop().
      timer.unref();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
  return clock;
}
