/**
 * Reading a wire-format transaction (the exact bytes a validator receives), on kit's codecs. The one
 * reader of the format in the SDK: the cluster takes its facts (signatures, blockhash, account keys,
 * instructions) for fees, history, the blockhash check and LiteSVM's input; the localnet's RPC layer
 * takes the same facts to check `sendTransaction` parameters and to render `getTransaction` in `json`.
 *
 * Two levels:
 * - `readWireTransaction`/`readWireMessage` read the structure as agave's RPC deserializes it
 *   (bincode): trailing bytes are tolerated, and failures are `WireFormatError`s with bincode's text.
 * - `decodeWireTransaction` is the cluster's gate: the structure, then what a validator refuses beyond
 *   it (trailing bytes, over the packet limit, signatures that do not match the header), as
 *   `MalformedTransaction`.
 */
import {
  type Address,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  fixDecoderSize,
  getArrayDecoder,
  getBase58Decoder,
  getBytesDecoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getShortU16Decoder,
  getShortU16Encoder,
  getTransactionSizeLimit,
  getTransactionVersionDecoder,
  isSolanaError,
  type ReadonlyUint8Array,
  type SignatureBytes,
  type SignaturesMap,
  SOLANA_ERROR__CODECS__CANNOT_DECODE_EMPTY_BYTE_ARRAY,
  SOLANA_ERROR__CODECS__INVALID_BYTE_LENGTH,
  SOLANA_ERROR__CODECS__NUMBER_OUT_OF_RANGE,
  SOLANA_ERROR__TRANSACTION__MESSAGE_SIGNATURES_MISMATCH,
  SOLANA_ERROR__TRANSACTION__VERSION_NUMBER_NOT_SUPPORTED,
  SolanaError,
  type Transaction,
  type TransactionMessageBytes,
} from "@solana/kit";

/** An instruction with indices into the message's account keys (static, then loaded). */
export interface WireInstruction {
  readonly programIndex: number;
  readonly accountIndices: readonly number[];
  readonly data: Uint8Array;
}

/** A v0/v1 lookup of accounts from an address lookup table. */
export interface WireLookup {
  readonly table: string;
  readonly writableIndexes: readonly number[];
  readonly readonlyIndexes: readonly number[];
}

/** The message header, with Solana's names (as RPC `json` shows it). */
export interface WireHeader {
  readonly numRequiredSignatures: number;
  readonly numReadonlySignedAccounts: number;
  readonly numReadonlyUnsignedAccounts: number;
}

export interface DecodedMessage {
  readonly message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime;
  readonly version: "legacy" | 0 | 1;
  readonly header: WireHeader;
  readonly recentBlockhash: string;
  readonly staticAccounts: readonly string[];
  readonly instructions: readonly WireInstruction[];
  /** Empty for legacy and v1 messages. */
  readonly lookups: readonly WireLookup[];
  /** v1 only: the priority fee in lamports carried in the message config, if any. */
  readonly v1PriorityFeeLamports: bigint | null;
  /** v1 only: the compute-unit limit carried in the message config, if any. */
  readonly v1ComputeUnitLimit: number | null;
}

export interface DecodedTransaction extends DecodedMessage {
  /** Kit's view (message bytes + signature map), what LiteSVM's binding takes. */
  readonly transaction: Transaction;
  /** Every signature, base58, in wire order (an all-zero one reads as 64 '1's, like Solana). */
  readonly signatures: readonly string[];
  /** The transaction id: the first signature (all-zero when there is none). */
  readonly signature: string;
}

export interface ReadOptions {
  /**
   * Read v1 transactions too: kit's envelope with the message first (its first byte is 0x81), which
   * the embedded cluster executes. Without it the bytes are read as agave's RPC reads them today:
   * signatures first, legacy and v0 messages only.
   */
  readonly v1: boolean;
}

/** Bytes that are not a transaction (or message); `message` reads like bincode's error text. */
export class WireFormatError extends Error {
  override readonly name = "WireFormatError";
}

/** The bytes do not form one valid transaction. */
export class MalformedTransaction extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedTransaction";
  }
}

const UNEXPECTED_EOF = "io error: unexpected end of file";
const NON_CANONICAL = "invalid value: non-canonical short_vec length";
const OVERFLOW = "invalid value: short_vec length overflows u16";
const V1_ENVELOPE = 0x81;

const base58 = getBase58Decoder();
const shortU16Decoder = getShortU16Decoder();
const shortU16Encoder = getShortU16Encoder();
const signatureDecoder = fixDecoderSize(getBytesDecoder(), 64);
const versionDecoder = getTransactionVersionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const messageEncoder = getCompiledTransactionMessageEncoder();
const ZERO_SIGNATURE = new Uint8Array(64);

/** Reads a transaction's structure; throws WireFormatError. Bytes after it are not read. */
export function readWireTransaction(wire: Uint8Array, options: ReadOptions): DecodedTransaction {
  return withBincodeErrors(() => readTransaction(wire, options).decoded);
}

/** Reads a bare message (as `getFeeForMessage` takes it); throws WireFormatError. */
export function readWireMessage(bytes: Uint8Array, options: ReadOptions): DecodedMessage {
  return withBincodeErrors(() => decodedMessage(readMessage(bytes, 0, options.v1)[0]));
}

/**
 * Decodes wire bytes; throws MalformedTransaction for anything a validator would refuse to parse:
 * undecodable bytes, trailing bytes, more bytes than the packet limit, or a signature count that does
 * not match the message header.
 */
export function decodeWireTransaction(wire: Uint8Array): DecodedTransaction {
  let read: ReturnType<typeof readTransaction>;
  try {
    read = withBincodeErrors(() => readTransaction(wire, { v1: true }));
  } catch (cause) {
    if (cause instanceof WireFormatError) {
      throw new MalformedTransaction(`cannot decode transaction: ${cause.message}`);
    }
    throw cause;
  }
  const { decoded, end } = read;
  const signers = signerAddresses(decoded);
  if (signers.length !== decoded.signatures.length) {
    // One signature per signing key: kit's transaction decoder refuses anything else, in these words.
    const mismatch = new SolanaError(SOLANA_ERROR__TRANSACTION__MESSAGE_SIGNATURES_MISMATCH, {
      numRequiredSignatures: decoded.header.numRequiredSignatures,
      signaturesLength: decoded.signatures.length,
      signerAddresses: signers,
    });
    throw new MalformedTransaction(`cannot decode transaction: ${mismatch.message}`);
  }
  // RPC nodes refuse trailing bytes.
  if (end !== wire.length) throw new MalformedTransaction("transaction has trailing bytes");
  if (wire.length > getTransactionSizeLimit(decoded.transaction)) {
    throw new MalformedTransaction(`transaction is ${wire.length} bytes, over the packet limit`);
  }
  if (decoded.signatures.length !== decoded.header.numRequiredSignatures || decoded.signatures.length === 0) {
    throw new MalformedTransaction("signature count does not match the message header");
  }
  return decoded;
}

/**
 * The same transaction with another recent blockhash (for simulate's `replaceRecentBlockhash`).
 * Signatures are kept as they are and no longer match, so simulate it without signature checks.
 */
export function withRecentBlockhash(decoded: DecodedTransaction, blockhash: string): Transaction {
  const messageBytes = messageEncoder.encode({
    ...decoded.message,
    lifetimeToken: blockhash,
  }) as TransactionMessageBytes;
  return { messageBytes, signatures: decoded.transaction.signatures };
}

/** The static account keys that must sign, in message order. */
export function signerAddresses(decoded: DecodedMessage): Address[] {
  return decoded.message.staticAccounts.slice(0, decoded.header.numRequiredSignatures);
}

/** The transaction and the offset just past it. */
function readTransaction(
  wire: Uint8Array,
  options: ReadOptions,
): { decoded: DecodedTransaction; end: number } {
  if (options.v1 && wire[0] === V1_ENVELOPE) {
    // v1: the message, then as many signatures as its header requires.
    const [message, messageEnd] = readMessage(wire, 0, true);
    const [signatures, end] = getArrayDecoder(signatureDecoder, {
      size: message.header.numSignerAccounts,
    }).read(wire, messageEnd);
    return { decoded: decodedTransaction(message, signatures, wire.slice(0, messageEnd)), end };
  }
  const [count, signaturesStart] = readShortVecLength(wire, 0);
  const [signatures, messageStart] = getArrayDecoder(signatureDecoder, { size: count }).read(
    wire,
    signaturesStart,
  );
  const [message, end] = readMessage(wire, messageStart, false);
  return { decoded: decodedTransaction(message, signatures, wire.slice(messageStart, end)), end };
}

/** A compact-u16 ("short_vec") length, which bincode insists be in its shortest form. */
function readShortVecLength(bytes: Uint8Array, offset: number): [number, number] {
  const [value, end] = shortU16Decoder.read(bytes, offset);
  if (shortU16Encoder.getSizeFromValue(value) !== end - offset) throw new WireFormatError(NON_CANONICAL);
  return [value, end];
}

function readMessage(
  bytes: Uint8Array,
  offset: number,
  v1: boolean,
): [CompiledTransactionMessage & CompiledTransactionMessageWithLifetime, number] {
  // The version byte first, as agave reads it: an unknown version fails before the rest is read.
  const [version] = versionDecoder.read(bytes, offset);
  if (version === 1 && !v1) throw new WireFormatError(unknownVersionText(1));
  const [message, end] = messageDecoder.read(bytes, offset);
  // Re-encoding (lengths in their shortest form, every array with its length) tells what kit let pass:
  // fewer bytes means a short_vec length in a longer form than needed, which bincode refuses; more
  // means the bytes ended where an array's length was due, which kit reads as an empty array.
  const size = messageEncoder.getSizeFromValue(message);
  if (size < end - offset) throw new WireFormatError(NON_CANONICAL);
  if (size > end - offset) throw new WireFormatError(UNEXPECTED_EOF);
  return [message, end];
}

/** Runs `read`, turning kit's decoding errors into WireFormatErrors with bincode's text. */
function withBincodeErrors<T>(read: () => T): T {
  try {
    return read();
  } catch (cause) {
    if (cause instanceof WireFormatError) throw cause;
    if (isSolanaError(cause, SOLANA_ERROR__CODECS__INVALID_BYTE_LENGTH)) {
      // Kit's short_vec reader reports a fourth length byte as a 4-byte read where 3 is the most.
      const { codecDescription, bytesLength, expected } = cause.context;
      throw new WireFormatError(
        codecDescription === "shortU16" && bytesLength > expected ? OVERFLOW : UNEXPECTED_EOF,
      );
    }
    if (isSolanaError(cause, SOLANA_ERROR__CODECS__CANNOT_DECODE_EMPTY_BYTE_ARRAY)) {
      throw new WireFormatError(UNEXPECTED_EOF);
    }
    if (isSolanaError(cause, SOLANA_ERROR__CODECS__NUMBER_OUT_OF_RANGE)) throw new WireFormatError(OVERFLOW);
    if (isSolanaError(cause, SOLANA_ERROR__TRANSACTION__VERSION_NUMBER_NOT_SUPPORTED)) {
      throw new WireFormatError(unknownVersionText(cause.context.unsupportedVersion));
    }
    if (isSolanaError(cause)) throw new WireFormatError(cause.message);
    throw cause;
  }
}

function unknownVersionText(version: number): string {
  return `invalid value: integer \`${version}\`, expected a valid transaction message version`;
}

function decodedTransaction(
  message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime,
  signatures: readonly ReadonlyUint8Array[],
  messageBytes: Uint8Array,
): DecodedTransaction {
  const decoded = decodedMessage(message);
  // Kit's signature map: each signer's signature by address, null where it is all zeros.
  const signatureMap: Record<string, SignatureBytes | null> = {};
  signerAddresses(decoded).forEach((signer, index) => {
    const signature = signatures[index];
    if (signature === undefined) return;
    signatureMap[signer] = signature.every((byte) => byte === 0) ? null : (signature as SignatureBytes);
  });
  const base58Signatures = signatures.map((signature) => base58.decode(signature));
  return {
    ...decoded,
    transaction: {
      messageBytes: messageBytes as ReadonlyUint8Array as TransactionMessageBytes,
      signatures: Object.freeze(signatureMap) as SignaturesMap,
    },
    signatures: base58Signatures,
    signature: base58Signatures[0] ?? base58.decode(ZERO_SIGNATURE),
  };
}

function decodedMessage(
  message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime,
): DecodedMessage {
  return {
    message,
    version: message.version,
    header: {
      numRequiredSignatures: message.header.numSignerAccounts,
      numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
    },
    recentBlockhash: message.lifetimeToken,
    staticAccounts: message.staticAccounts,
    instructions: wireInstructions(message),
    lookups:
      message.version === 0
        ? (message.addressTableLookups ?? []).map((l) => ({
            table: l.lookupTableAddress,
            writableIndexes: l.writableIndexes,
            readonlyIndexes: l.readonlyIndexes,
          }))
        : [],
    ...v1Config(message),
  };
}

function wireInstructions(message: CompiledTransactionMessage): WireInstruction[] {
  if (message.version === 1) {
    return message.instructionHeaders.map((header, i) => {
      const payload = message.instructionPayloads[i];
      return {
        programIndex: header.programAccountIndex,
        accountIndices: payload?.instructionAccountIndices ?? [],
        data: Uint8Array.from(payload?.instructionData ?? []),
      };
    });
  }
  return message.instructions.map((ix) => ({
    programIndex: ix.programAddressIndex,
    accountIndices: ix.accountIndices ?? [],
    data: Uint8Array.from(ix.data ?? []),
  }));
}

// v1 messages carry compute budget settings in a config mask + values instead of instructions:
// bits 0-1 priority fee (u64, lamports), bit 2 compute-unit limit (u32), bit 3 loaded-accounts data
// size limit (u32), bit 4 heap size (u32); values appear in bit order.
function v1Config(message: CompiledTransactionMessage): {
  v1PriorityFeeLamports: bigint | null;
  v1ComputeUnitLimit: number | null;
} {
  if (message.version !== 1) return { v1PriorityFeeLamports: null, v1ComputeUnitLimit: null };
  const values = [...message.configValues];
  let v1PriorityFeeLamports: bigint | null = null;
  let v1ComputeUnitLimit: number | null = null;
  if ((message.configMask & 0b11) !== 0) {
    const v = values.shift();
    if (v?.kind === "u64") v1PriorityFeeLamports = v.value;
  }
  if ((message.configMask & 0b100) !== 0) {
    const v = values.shift();
    if (v?.kind === "u32") v1ComputeUnitLimit = v.value;
  }
  return { v1PriorityFeeLamports, v1ComputeUnitLimit };
}
