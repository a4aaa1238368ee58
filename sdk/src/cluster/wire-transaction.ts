/**
 * Reading a wire-format transaction (the exact bytes a validator receives) into the few facts the
 * cluster needs: signatures, blockhash, account keys, instructions. One decoder for legacy, v0 and v1
 * messages, so fees, history and the blockhash check see the same view of every version.
 */
import {
  type Address,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionSizeLimit,
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

export interface DecodedTransaction {
  /** Kit's view (message bytes + signature map), what LiteSVM's binding takes. */
  readonly transaction: Transaction;
  readonly message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime;
  readonly version: "legacy" | 0 | 1;
  /** The transaction id: the first signature, base58 (all-zero when unsigned, like Solana). */
  readonly signature: string;
  readonly recentBlockhash: string;
  readonly staticAccounts: readonly string[];
  readonly numSigners: number;
  readonly instructions: readonly WireInstruction[];
  readonly lookups: readonly WireLookup[];
  /** v1 only: the priority fee in lamports carried in the message config, if any. */
  readonly v1PriorityFeeLamports: bigint | null;
  /** v1 only: the compute-unit limit carried in the message config, if any. */
  readonly v1ComputeUnitLimit: number | null;
}

/** The bytes do not form one valid transaction. */
export class MalformedTransaction extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedTransaction";
  }
}

const base58 = getBase58Decoder();
const ZERO_SIGNATURE = new Uint8Array(64);

/**
 * Decodes wire bytes; throws MalformedTransaction for anything a validator would refuse to parse:
 * undecodable bytes, trailing bytes, more bytes than the packet limit, or a signature count that does
 * not match the message header.
 */
export function decodeWireTransaction(wire: Uint8Array): DecodedTransaction {
  let transaction: Transaction;
  let message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime;
  try {
    transaction = getTransactionDecoder().decode(wire);
    message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  } catch (cause) {
    throw new MalformedTransaction(`cannot decode transaction: ${(cause as Error).message}`);
  }
  // The message decoder stops at the end of what it reads (kit takes "the rest" as message bytes);
  // RPC nodes refuse trailing bytes.
  if (getCompiledTransactionMessageEncoder().getSizeFromValue(message) !== transaction.messageBytes.length) {
    throw new MalformedTransaction("transaction has trailing bytes");
  }
  if (wire.length > getTransactionSizeLimit(transaction)) {
    throw new MalformedTransaction(`transaction is ${wire.length} bytes, over the packet limit`);
  }
  const signatures = Object.values(transaction.signatures);
  if (signatures.length !== message.header.numSignerAccounts || signatures.length === 0) {
    throw new MalformedTransaction("signature count does not match the message header");
  }
  const first = signatures[0] ?? null;
  return {
    transaction,
    message,
    version: message.version,
    signature: base58.decode(first ?? ZERO_SIGNATURE),
    recentBlockhash: message.lifetimeToken,
    staticAccounts: message.staticAccounts,
    numSigners: message.header.numSignerAccounts,
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

/**
 * The same transaction with another recent blockhash (for simulate's `replaceRecentBlockhash`).
 * Signatures are kept as they are and no longer match, so simulate it without signature checks.
 */
export function withRecentBlockhash(decoded: DecodedTransaction, blockhash: string): Transaction {
  const messageBytes = getCompiledTransactionMessageEncoder().encode({
    ...decoded.message,
    lifetimeToken: blockhash,
  }) as TransactionMessageBytes;
  return { messageBytes, signatures: decoded.transaction.signatures };
}

/** The static account keys that must sign, in message order. */
export function signerAddresses(decoded: DecodedTransaction): Address[] {
  return decoded.message.staticAccounts.slice(0, decoded.numSigners);
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
