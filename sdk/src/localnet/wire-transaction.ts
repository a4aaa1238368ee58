/**
 * A reader for Solana's transaction wire format (legacy and v0), producing the pieces the RPC layer
 * shows back to clients: signatures, header, static keys, blockhash, compiled instructions and
 * address-table lookups.
 *
 * The cluster port takes raw bytes and does its own sanitizing; the RPC layer parses for two reasons
 * of its own: to answer `getTransaction` with `encoding: "json"` from the stored wire bytes, and to
 * know a transaction's signature before (or without) the cluster accepting it, as agave does.
 * Trailing bytes after the message are tolerated, like agave's bincode options.
 */
import { encodeBase58 } from "./base58";

export interface CompiledInstruction {
  readonly programIdIndex: number;
  readonly accounts: readonly number[];
  readonly data: Uint8Array;
}

export interface AddressTableLookup {
  readonly accountKey: string;
  readonly writableIndexes: readonly number[];
  readonly readonlyIndexes: readonly number[];
}

export interface WireMessage {
  readonly version: "legacy" | 0;
  readonly header: {
    readonly numRequiredSignatures: number;
    readonly numReadonlySignedAccounts: number;
    readonly numReadonlyUnsignedAccounts: number;
  };
  readonly accountKeys: readonly string[];
  readonly recentBlockhash: string;
  readonly instructions: readonly CompiledInstruction[];
  /** Empty for legacy messages. */
  readonly addressTableLookups: readonly AddressTableLookup[];
}

export interface WireTransaction {
  /** Base58 signatures in wire order; the first one is the transaction's id. */
  readonly signatures: readonly string[];
  readonly message: WireMessage;
  /** The serialized message (what the signatures sign). */
  readonly messageBytes: Uint8Array;
}

/** Thrown on bytes that are not a transaction; `message` reads like bincode's error text. */
export class WireFormatError extends Error {
  override readonly name = "WireFormatError";
}

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  u8(): number {
    const value = this.bytes[this.offset];
    if (value === undefined) throw new WireFormatError("io error: unexpected end of file");
    this.offset += 1;
    return value;
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length)
      throw new WireFormatError("io error: unexpected end of file");
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  /** Solana's compact-u16 ("short_vec") length prefix: 1 to 3 bytes, canonical. */
  shortVec(): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8();
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) throw new WireFormatError("invalid value: non-canonical short_vec length");
        if (value > 0xffff) throw new WireFormatError("invalid value: short_vec length overflows u16");
        return value;
      }
    }
    throw new WireFormatError("invalid value: short_vec length overflows u16");
  }

  bytesList(): number[] {
    return Array.from(this.take(this.shortVec()));
  }
}

export function readWireMessage(bytes: Uint8Array): WireMessage {
  return readMessage(new Reader(bytes));
}

export function readWireTransaction(bytes: Uint8Array): WireTransaction {
  const reader = new Reader(bytes);
  const count = reader.shortVec();
  const signatures: string[] = [];
  for (let i = 0; i < count; i++) signatures.push(encodeBase58(reader.take(64)));
  const start = reader.offset;
  const message = readMessage(reader);
  return { signatures, message, messageBytes: bytes.subarray(start, reader.offset) };
}

function readMessage(reader: Reader): WireMessage {
  let version: "legacy" | 0 = "legacy";
  let first = reader.u8();
  if (first & 0x80) {
    const number = first & 0x7f;
    if (number !== 0) {
      throw new WireFormatError(
        `invalid value: integer \`${number}\`, expected a valid transaction message version`,
      );
    }
    version = 0;
    first = reader.u8();
  }
  const header = {
    numRequiredSignatures: first,
    numReadonlySignedAccounts: reader.u8(),
    numReadonlyUnsignedAccounts: reader.u8(),
  };
  const keyCount = reader.shortVec();
  const accountKeys: string[] = [];
  for (let i = 0; i < keyCount; i++) accountKeys.push(encodeBase58(reader.take(32)));
  const recentBlockhash = encodeBase58(reader.take(32));
  const instructionCount = reader.shortVec();
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = reader.u8();
    const accounts = reader.bytesList();
    const data = reader.take(reader.shortVec());
    instructions.push({ programIdIndex, accounts, data });
  }
  const addressTableLookups: AddressTableLookup[] = [];
  if (version === 0) {
    const lookupCount = reader.shortVec();
    for (let i = 0; i < lookupCount; i++) {
      const accountKey = encodeBase58(reader.take(32));
      const writableIndexes = reader.bytesList();
      const readonlyIndexes = reader.bytesList();
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  return { version, header, accountKeys, recentBlockhash, instructions, addressTableLookups };
}
