/**
 * The slot clock: the one place the embedded chain's slot and time move. LiteSVM has no notion of
 * time passing, so without this a transaction would be `processed` forever and `pending -> confirmed`
 * could never be observed.
 *
 * Each slot: slot and block height + 1 (no skipped slots, so block height = slot - genesis slot),
 * a new blockhash registered in the blockhash queue, SlotHashes gets the new slot, and the Clock
 * sysvar's `slot` and `unix_timestamp` follow. Blockhashes are a hash chain from the genesis hash
 * (sha256 of the previous one and the slot), not LiteSVM's: LiteSVM's chain starts from the same
 * value in every instance, so two chains (or one chain after a restart) would repeat blockhashes.
 * LiteSVM's own blockhash still expires every slot, since a durable nonce can only be advanced once
 * per LiteSVM blockhash.
 *
 * Time: every slot adds `msPerSlot` to the cluster's unix time (400 ms by default; `slotMs` when a
 * timer drives the clock), so in timer mode it tracks the wall clock loosely (a busy event loop makes
 * it lag; nothing depends on it matching). `setUnixTime` and `warpTime` move time without producing
 * slots, so a test can stand at 23:59:59 UTC or jump a day without expiring every blockhash.
 */
import { createHash } from "node:crypto";
import { getBase58Decoder, getBase58Encoder } from "@solana/kit";
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

/** Where a clock stands: enough to resume it in another process (see chain-store-state.ts). */
export interface SlotClockState {
  readonly genesisSlot: bigint;
  readonly slot: bigint;
  /** Cluster time in ms (the Clock sysvar shows it in whole seconds). */
  readonly unixMs: number;
  /** The newest SlotHashes entries (at most 512), newest first; the first is `slot`'s blockhash. */
  readonly recentHashes: readonly { readonly slot: bigint; readonly hash: string }[];
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
  /** A copy of where the clock stands. */
  state(): SlotClockState;
}

export interface SlotClockOptions {
  readonly svm: LiteSVM;
  readonly blockhashes: BlockhashQueue;
  /** Timer period; 0 = manual (only `advance` produces slots). */
  readonly slotMs: number;
  /**
   * A new chain: the first slot is LiteSVM's current one, its blockhash `genesisHash`, at
   * `startUnixMs`. A resumed chain: exactly where `state` says (the blockhash queue must already
   * hold the state's recent hashes).
   */
  readonly start:
    | { readonly genesisHash: string; readonly startUnixMs: number }
    | { readonly resume: SlotClockState };
  /** Called once per `advance`, after all sysvars reflect the last tick. */
  readonly onSlots: (ticks: readonly SlotTick[]) => void;
  /** Called after any change of slot or time (advance, setUnixTime, warpTime), before onSlots. */
  readonly onChange?: (clock: { readonly slot: bigint; readonly unixMs: number }) => void;
}

/** The blockhash of `slot`, chained from its predecessor's. */
export function nextBlockhash(previous: string, slot: bigint): string {
  const slotBytes = new Uint8Array(8);
  new DataView(slotBytes.buffer).setBigUint64(0, slot, true);
  const digest = createHash("sha256")
    .update(base58Bytes.encode(previous) as Uint8Array)
    .update(slotBytes)
    .digest();
  return base58Text.decode(digest);
}

const base58Bytes = getBase58Encoder();
const base58Text = getBase58Decoder();

/** A clock positioned as `options.start` says, with the Clock sysvar and SlotHashes written. */
export function createSlotClock(options: SlotClockOptions): SlotClock {
  const { svm, blockhashes } = options;
  const msPerSlot = options.slotMs > 0 ? options.slotMs : DEFAULT_MS_PER_SLOT;
  const resume = "resume" in options.start ? options.start.resume : null;
  const genesisSlot = resume?.genesisSlot ?? svm.getClock().slot;
  let slot = resume?.slot ?? genesisSlot;
  let unixMs = resume?.unixMs ?? (options.start as { startUnixMs: number }).startUnixMs;
  let timer: NodeJS.Timeout | null = null;
  const slotHashes: { slot: bigint; hash: string }[] =
    resume === null
      ? [{ slot, hash: (options.start as { genesisHash: string }).genesisHash }]
      : resume.recentHashes.map((entry) => ({ ...entry }));
  const changed = () => options.onChange?.({ slot, unixMs });

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
        const blockhash = nextBlockhash(slotHashes[0]?.hash ?? "", slot);
        const tick = { slot, blockHeight: slot - genesisSlot, blockhash, unixTimestamp: unixTimestamp() };
        blockhashes.push(tick);
        slotHashes.unshift({ slot, hash: blockhash });
        ticks.push(tick);
      }
      slotHashes.length = Math.min(slotHashes.length, SLOT_HASHES_MAX);
      writeClock();
      svm.setSlotHashes(slotHashes);
      changed();
      options.onSlots(ticks);
    },
    setUnixTime(seconds) {
      unixMs = Number(seconds) * 1000;
      writeClock();
      changed();
    },
    warpTime(seconds) {
      unixMs += Number(seconds) * 1000;
      writeClock();
      changed();
    },
    state: () => ({ genesisSlot, slot, unixMs, recentHashes: slotHashes.map((entry) => ({ ...entry })) }),
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
