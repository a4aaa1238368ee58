import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, generateKeyPairSigner } from "@solana/kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JOURNAL_FILE, SNAPSHOT_FILE } from "./chain-store-files";
import { createEmbeddedCluster, type EmbeddedCluster, type EmbeddedClusterOptions } from "./embedded-cluster";
import { buildWire, fundedSigner, memoInstruction, memoProgramElf, transferWire } from "./test-helpers";

const elf = memoProgramElf();
let dir: string;
const opened: EmbeddedCluster[] = [];

/** A cluster on `dir` with a manual clock and SPL Memo as its program (new chain or continued). */
async function open(options: EmbeddedClusterOptions = {}): Promise<EmbeddedCluster> {
  const cluster = await createEmbeddedCluster({
    slotMs: 0,
    programBytes: elf,
    chainStoreDir: dir,
    ...options,
  });
  opened.push(cluster);
  return cluster;
}

/** The process died: nothing more is written (no final snapshot), the files stay as they are. */
function crash(cluster: EmbeddedCluster): void {
  opened.splice(opened.indexOf(cluster), 1);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cpay-chain-store-"));
});
afterEach(() => {
  for (const cluster of opened.splice(0)) cluster.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a cluster with a chain store", () => {
  it("continues the same chain after a crash: accounts, history, statuses, program, slot, time", async () => {
    // Given a chain with a transfer and a program invocation, journaled but never snapshotted
    const first = await open();
    expect(first.chainStore?.restored).toBe(false);
    const payer = await fundedSigner(first);
    const to = (await generateKeyPairSigner()).address;
    const transfer = first.sendTransaction(await transferWire(first, payer, to, 5_000_000n));
    const memo = first.sendTransaction(
      await buildWire({
        payer,
        blockhash: first.getLatestBlockhash().blockhash,
        instructions: [memoInstruction(first.programId as Address, "before")],
      }),
    );
    first.clock.advance(40);
    first.clock.warpTime(3600);
    const before = {
      slot: first.getSlot(),
      time: first.clock.unixTimestamp,
      payer: first.getAccount(payer.address),
      mint: first.getAccount(first.usdgMint),
      blockhash: first.getLatestBlockhash(),
      page: first.getSignaturesForAddress(payer.address),
    };
    crash(first);

    // When the cluster starts again on the directory
    const second = await open();

    // Then it is the same chain where it stood
    expect(second.chainStore?.restored).toBe(true);
    expect(second.genesisHash).toBe(first.genesisHash);
    expect(second.getSlot()).toBe(before.slot);
    expect(second.clock.unixTimestamp).toBe(before.time);
    expect(second.getLatestBlockhash()).toEqual(before.blockhash);
    expect(second.getAccount(to)?.lamports).toBe(5_000_000n);
    expect(second.getAccount(payer.address)).toEqual(before.payer);
    expect(second.getAccount(second.usdgMint)).toEqual(before.mint);
    expect(second.getSignaturesForAddress(payer.address)).toEqual(before.page);
    expect(second.getSignatureStatus(transfer)?.confirmationStatus).toBe("finalized");
    expect(second.getTransaction(memo)?.logs).toContain("Program log: before");
    expect(second.deployment).toEqual(first.deployment);

    // And it keeps working: the restored program runs, a recent blockhash still lands, a
    // transaction that landed before is still a duplicate
    second.clock.advance(1);
    const again = second.sendTransaction(
      await buildWire({
        payer,
        blockhash: before.blockhash.blockhash,
        instructions: [memoInstruction(second.programId as Address, "after")],
      }),
    );
    expect(second.getTransaction(again)?.err).toBeNull();
    expect(second.getTransaction(again)?.logs).toContain("Program log: after");
    expect(second.getSlot()).toBe(before.slot + 1n);
    expect(() => second.sendTransaction(second.getTransaction(transfer)?.wire ?? new Uint8Array())).toThrow();
  });

  it("continues after a clean stop, from the snapshot alone", async () => {
    const first = await open();
    const payer = await fundedSigner(first, 3_000_000_000n);
    first.clock.advance(5);
    first.stop();
    opened.splice(opened.indexOf(first), 1);
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBe(20);

    const second = await open();
    expect(second.getAccount(payer.address)?.lamports).toBe(3_000_000_000n);
    expect(second.getSlot()).toBe(first.getSlot());
    const to = (await generateKeyPairSigner()).address;
    second.sendTransaction(await transferWire(second, payer, to, 1_000_000n));
    expect(second.getAccount(to)?.lamports).toBe(1_000_000n);
  });

  it("gives every new chain a genesis hash of its own", async () => {
    const first = await open();
    const otherDir = mkdtempSync(join(tmpdir(), "cpay-chain-store-"));
    try {
      const other = await createEmbeddedCluster({ slotMs: 0, programBytes: elf, chainStoreDir: otherDir });
      other.stop();
      const inMemory = await createEmbeddedCluster({ slotMs: 0, programPath: null });
      inMemory.stop();
      expect(new Set([first.genesisHash, other.genesisHash, inMemory.genesisHash]).size).toBe(3);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it("drops a torn last journal record and appends after it", async () => {
    // Given a journal whose last record was cut short by a crash mid-write
    const first = await open();
    const payer = await fundedSigner(first);
    const lastTo = (await generateKeyPairSigner()).address;
    first.sendTransaction(await transferWire(first, payer, lastTo, 7_000_000n));
    crash(first);
    const journal = join(dir, JOURNAL_FILE);
    truncateSync(journal, statSync(journal).size - 10);

    // When the cluster starts again
    const second = await open();

    // Then that transaction is gone (its sender was never answered), everything before it is there
    expect(second.chainStore?.droppedTornBytes).toBeGreaterThan(0);
    expect(second.getAccount(lastTo)).toBeNull();
    expect(second.getAccount(payer.address)?.lamports).toBe(10_000_000_000n);
    // And new transactions journal cleanly after the cut
    const to = (await generateKeyPairSigner()).address;
    second.sendTransaction(await transferWire(second, payer, to, 2_000_000n));
    crash(second);
    const third = await open();
    expect(third.chainStore?.droppedTornBytes).toBe(0);
    expect(third.getAccount(to)?.lamports).toBe(2_000_000n);
  });

  it("drops history older than the retention at a snapshot, never accounts", async () => {
    const first = await open({ historySlots: 200n });
    const payer = await fundedSigner(first);
    const oldTransfer = first.sendTransaction(await transferWire(first, payer, payer.address, 1n));
    first.clock.advance(300);
    const recent = first.sendTransaction(await transferWire(first, payer, payer.address, 2n));
    first.chainStore?.snapshot();
    expect(first.getTransaction(oldTransfer)).toBeNull();
    expect(first.getTransaction(recent)).not.toBeNull();
    crash(first);

    const second = await open({ historySlots: 200n });
    expect(second.getTransaction(oldTransfer)).toBeNull();
    expect(second.getSignaturesForAddress(payer.address).map((info) => info.signature)).toEqual([recent]);
    expect(second.getAccount(payer.address)).not.toBeNull();
    expect(second.getAccount(second.usdgMint)).not.toBeNull();
  });
});

describe("a localnet directory from before the chain store had its name", () => {
  /** The directory as that version left it when killed: its files, its lock under the former name. */
  async function formerDirectory(holder: number): Promise<{ payer: Address; slot: bigint }> {
    const first = await open();
    const payer = await fundedSigner(first, 6_000_000_000n);
    first.clock.advance(3);
    crash(first);
    rmSync(join(dir, "chain-store.lock"));
    writeFileSync(join(dir, "ledger.lock"), `${holder}\n`);
    return { payer: payer.address, slot: first.getSlot() };
  }

  it("continues its chain: the data files keep their names, the former lock of a dead process goes", async () => {
    // Given the directory of a localnet killed before the rename (a pid that has exited)
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const before = await formerDirectory(deadPid);

    // When the localnet starts on it
    const second = await open();

    // Then it is the same chain, and only the lock's name changed
    expect(second.chainStore?.restored).toBe(true);
    expect(second.getSlot()).toBe(before.slot);
    expect(second.getAccount(before.payer)?.lamports).toBe(6_000_000_000n);
    expect(readdirSync(dir).sort()).toEqual(["chain-store.lock", JOURNAL_FILE, SNAPSHOT_FILE]);
  });

  it("refuses it while a localnet of the former version still runs on it, and leaves no lock of its own", async () => {
    // Given the former lock held by a live process (this test's parent)
    await formerDirectory(process.ppid);

    // When the localnet starts on it, Then it refuses, naming the holder
    await expect(open()).rejects.toThrow(`is in use by process ${process.ppid}`);
    expect(existsSync(join(dir, "chain-store.lock"))).toBe(false);
    expect(existsSync(join(dir, "ledger.lock"))).toBe(true);
  });
});

describe("a crash while writing a snapshot", () => {
  it("leaves the old snapshot and journal in charge when it comes before the rename", async () => {
    const first = await open();
    const payer = await fundedSigner(first, 4_000_000_000n);
    crash(first);
    // A half-written temporary snapshot is what a crash mid-write leaves
    writeFileSync(join(dir, `${SNAPSHOT_FILE}.tmp`), "CPAYSNAP half");

    const second = await open();
    expect(second.getAccount(payer.address)?.lamports).toBe(4_000_000_000n);
  });

  it("skips the journal records the new snapshot holds when it comes before the journal restarts", async () => {
    // Given a snapshot written after some journaled transactions, and the old journal still there
    const first = await open();
    const payer = await fundedSigner(first, 4_000_000_000n);
    const to = (await generateKeyPairSigner()).address;
    first.sendTransaction(await transferWire(first, payer, to, 9_000_000n));
    const oldJournal = readFileSync(join(dir, JOURNAL_FILE));
    first.chainStore?.snapshot();
    crash(first);
    writeFileSync(join(dir, JOURNAL_FILE), oldJournal);

    // When the cluster starts again, each transaction is there once, and new ones journal after
    const second = await open();
    expect(second.getAccount(to)?.lamports).toBe(9_000_000n);
    expect(second.getSignaturesForAddress(to)).toHaveLength(1);
    const more = (await generateKeyPairSigner()).address;
    second.sendTransaction(await transferWire(second, payer, more, 1_000_000n));
    crash(second);
    const third = await open();
    expect(third.getAccount(more)?.lamports).toBe(1_000_000n);
    expect(third.getAccount(to)?.lamports).toBe(9_000_000n);
  });

  it("starts a journal when a new chain's first snapshot is there without one", async () => {
    const first = await open();
    const payer = await fundedSigner(first, 4_000_000_000n);
    first.stop();
    opened.splice(opened.indexOf(first), 1);
    rmSync(join(dir, JOURNAL_FILE));

    const second = await open();
    expect(second.getAccount(payer.address)?.lamports).toBe(4_000_000_000n);
    const to = (await generateKeyPairSigner()).address;
    second.sendTransaction(await transferWire(second, payer, to, 1_000_000n));
    crash(second);
    expect((await open()).getAccount(to)?.lamports).toBe(1_000_000n);
  });

  it("writes a snapshot once enough slots passed, and the journal starts over", async () => {
    const first = await open({ snapshotEverySlots: 10n });
    await fundedSigner(first);
    first.clock.advance(1);
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBeGreaterThan(20);
    first.clock.advance(10);
    first.clock.advance(1);
    // The snapshot took the transaction; the journal holds only the one clock move after it
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBeLessThan(200);
    crash(first);
    const second = await open({ snapshotEverySlots: 10n });
    expect(second.getSlot()).toBe(first.getSlot());
  });
});

describe("a chain store that does not load", () => {
  async function storeWithJournal(): Promise<void> {
    const first = await open();
    const payer = await fundedSigner(first);
    for (let i = 0; i < 3; i++)
      first.sendTransaction(await transferWire(first, payer, payer.address, BigInt(i + 1)));
    crash(first);
  }
  const refusal = (file: string) =>
    expect(open()).rejects.toThrow(new RegExp(`${file}.*move the localnet directory aside`));

  it("refuses a snapshot with a flipped byte", async () => {
    await storeWithJournal();
    const path = join(dir, SNAPSHOT_FILE);
    const bytes = readFileSync(path);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff;
    writeFileSync(path, bytes);
    await refusal(`${path} is corrupt`);
  });

  it("refuses a truncated snapshot", async () => {
    await storeWithJournal();
    const path = join(dir, SNAPSHOT_FILE);
    truncateSync(path, statSync(path).size - 100);
    await refusal(`${path} is truncated`);
  });

  it("refuses another format version", async () => {
    await storeWithJournal();
    const path = join(dir, SNAPSHOT_FILE);
    const bytes = readFileSync(path);
    bytes.writeUInt32LE(2, 8);
    writeFileSync(path, bytes);
    await refusal(`${path} has format version 2`);
  });

  it("refuses a journal record that fails its checksum before the last one", async () => {
    await storeWithJournal();
    const path = join(dir, JOURNAL_FILE);
    const bytes = readFileSync(path);
    // The first record's payload starts after the 20-byte header and the 8-byte record header.
    bytes[40] = (bytes[40] ?? 0) ^ 0xff;
    writeFileSync(path, bytes);
    await refusal(`${path} is corrupt`);
  });

  it("refuses a journal without its snapshot", async () => {
    await storeWithJournal();
    rmSync(join(dir, SNAPSHOT_FILE));
    await refusal(`${join(dir, JOURNAL_FILE)} has no snapshot.bin`);
  });
});
