/**
 * The chain store's two files and their framing; what goes inside is chain-store-state's business.
 *
 * `snapshot.bin`: "CPAYSNAP", format version (u32 LE), payload length (u64 LE), sha256 of the payload
 * (32 bytes), payload. Written whole to `snapshot.bin.tmp`, fsynced, renamed over the old one, and
 * the directory fsynced: a crash leaves either the old snapshot or the new one, never half of one.
 *
 * `journal.bin`: "CPAYJRNL", format version (u32 LE), base sequence (u64 LE: the snapshot it
 * continues), then records of payload length (u32 LE), crc32 of the payload (u32 LE), payload. A
 * record is appended with one write and fdatasync before the transaction it holds is answered. Only
 * the last record can be torn (the process died while writing it, so nobody was told it landed):
 * reading drops it and truncates it away. Anything else that does not read is corruption, and the
 * chain store refuses to start rather than start a different chain.
 */

import { createHash } from "node:crypto";
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

export const CHAIN_STORE_FORMAT_VERSION = 1;
export const SNAPSHOT_FILE = "snapshot.bin";
export const JOURNAL_FILE = "journal.bin";

const SNAPSHOT_MAGIC = Buffer.from("CPAYSNAP");
const JOURNAL_MAGIC = Buffer.from("CPAYJRNL");
const SNAPSHOT_HEADER = 8 + 4 + 8 + 32;
const JOURNAL_HEADER = 8 + 4 + 8;
const RECORD_HEADER = 4 + 4;

/** A chain store file that cannot be used; the message names the file and what to do about it. */
export class ChainStoreError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(
      `chain store file ${file} ${problem}. The localnet will not start a different chain in its place: ` +
        "move the localnet directory aside (or delete it) to start a new chain, or restore it from a copy",
    );
    this.name = "ChainStoreError";
  }
}

/** Writes `payload` as the directory's snapshot, atomically and durably. */
export function writeSnapshotFile(dir: string, payload: Uint8Array): void {
  const header = Buffer.alloc(SNAPSHOT_HEADER);
  SNAPSHOT_MAGIC.copy(header, 0);
  header.writeUInt32LE(CHAIN_STORE_FORMAT_VERSION, 8);
  header.writeBigUInt64LE(BigInt(payload.length), 12);
  createHash("sha256").update(payload).digest().copy(header, 20);
  replaceDurably(dir, SNAPSHOT_FILE, [header, payload]);
}

/** The payload of `path`'s snapshot; throws ChainStoreError if it is not a whole, current one. */
export function readSnapshotFile(path: string): Buffer {
  const bytes = readFileSync(path);
  checkHeader(path, bytes, SNAPSHOT_MAGIC, SNAPSHOT_HEADER, "snapshot");
  const length = bytes.readBigUInt64LE(12);
  if (BigInt(bytes.length - SNAPSHOT_HEADER) !== length) {
    throw new ChainStoreError(
      path,
      `is truncated or padded (header says ${length} payload bytes, the file holds ${bytes.length - SNAPSHOT_HEADER})`,
    );
  }
  const payload = bytes.subarray(SNAPSHOT_HEADER);
  if (!createHash("sha256").update(payload).digest().equals(bytes.subarray(20, 52))) {
    throw new ChainStoreError(path, "is corrupt (its checksum does not match its contents)");
  }
  return payload;
}

export interface JournalContents {
  readonly baseSequence: bigint;
  readonly records: readonly Buffer[];
  /** Where the last whole record ends. */
  readonly validLength: number;
  /** Bytes of a torn last record after `validLength` (0 when the journal ends cleanly). */
  readonly tornBytes: number;
}

/** Reads a journal; a torn last record is reported, not returned. Throws ChainStoreError otherwise. */
export function readJournalFile(path: string): JournalContents {
  const bytes = readFileSync(path);
  checkHeader(path, bytes, JOURNAL_MAGIC, JOURNAL_HEADER, "journal");
  const records: Buffer[] = [];
  let offset = JOURNAL_HEADER;
  while (offset < bytes.length) {
    const end =
      offset + RECORD_HEADER + (bytes.length - offset >= RECORD_HEADER ? bytes.readUInt32LE(offset) : 0);
    if (bytes.length - offset < RECORD_HEADER || end > bytes.length) break;
    const payload = bytes.subarray(offset + RECORD_HEADER, end);
    if (crc32(payload) !== bytes.readUInt32LE(offset + 4)) {
      // A write cut short can leave the length in place and the payload half there: torn only
      // when it is the last thing in the file.
      if (end === bytes.length) break;
      throw new ChainStoreError(path, `is corrupt (the record at byte ${offset} fails its checksum)`);
    }
    records.push(payload);
    offset = end;
  }
  return {
    baseSequence: bytes.readBigUInt64LE(12),
    records,
    validLength: offset,
    tornBytes: bytes.length - offset,
  };
}

/** An open journal that appends records durably. */
export interface JournalWriter {
  /** Bytes in the file. */
  readonly size: number;
  /** Appends one record and waits until it is on disk. */
  append(payload: Uint8Array): void;
  close(): void;
}

/** Starts an empty journal continuing snapshot `baseSequence` (replacing any journal there). */
export function createJournalFile(dir: string, baseSequence: bigint): JournalWriter {
  const header = Buffer.alloc(JOURNAL_HEADER);
  JOURNAL_MAGIC.copy(header, 0);
  header.writeUInt32LE(CHAIN_STORE_FORMAT_VERSION, 8);
  header.writeBigUInt64LE(baseSequence, 12);
  replaceDurably(dir, JOURNAL_FILE, [header]);
  return openJournalFile(join(dir, JOURNAL_FILE), JOURNAL_HEADER);
}

/** Opens an existing journal for appending after `validLength` (cutting a torn tail off first). */
export function openJournalFile(path: string, validLength: number): JournalWriter {
  const fd = openSync(path, "r+");
  ftruncateSync(fd, validLength);
  fdatasyncSync(fd);
  let size = validLength;
  return {
    get size() {
      return size;
    },
    append(payload) {
      const record = Buffer.alloc(RECORD_HEADER + payload.length);
      record.writeUInt32LE(payload.length, 0);
      record.writeUInt32LE(crc32(payload), 4);
      record.set(payload, RECORD_HEADER);
      writeFully(fd, record, size);
      fdatasyncSync(fd);
      size += record.length;
    },
    close: () => closeSync(fd),
  };
}

function checkHeader(path: string, bytes: Buffer, magic: Buffer, headerLength: number, what: string): void {
  if (bytes.length < headerLength || !bytes.subarray(0, 8).equals(magic)) {
    throw new ChainStoreError(
      path,
      `is not a cpay localnet ${what} (${bytes.length < headerLength ? "too short" : "wrong magic bytes"})`,
    );
  }
  const version = bytes.readUInt32LE(8);
  if (version !== CHAIN_STORE_FORMAT_VERSION) {
    throw new ChainStoreError(
      path,
      `has format version ${version}; this localnet reads version ${CHAIN_STORE_FORMAT_VERSION} only`,
    );
  }
}

function writeFully(fd: number, bytes: Uint8Array, position: number): void {
  let written = 0;
  while (written < bytes.length) {
    written += writeSync(fd, bytes, written, bytes.length - written, position + written);
  }
}

/** Writes `dir/name` through a temporary file: fsync, rename over, fsync the directory. */
function replaceDurably(dir: string, name: string, parts: readonly Uint8Array[]): void {
  const temporary = join(dir, `${name}.tmp`);
  const fd = openSync(temporary, "w");
  try {
    let position = 0;
    for (const part of parts) {
      writeFully(fd, part, position);
      position += part.length;
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(dir, name));
  const dirFd = openSync(dir, "r");
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
