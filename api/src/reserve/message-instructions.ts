/**
 * A compiled message's instructions with their accounts as addresses, the one decoding the spend
 * bound (what a message can cost the reserve, before signing) and the charge of a landed
 * transaction (what it did cost, after) both read.
 */
import {
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type LegacyCompiledTransactionMessage,
  type ReadonlyUint8Array,
  type V0CompiledTransactionMessage,
} from "@solana/kit";

export type CompiledMessage = LegacyCompiledTransactionMessage | V0CompiledTransactionMessage;

/** One top-level instruction: its program and accounts as addresses, and its data. */
export interface MessageInstruction {
  readonly index: number;
  readonly program: string;
  readonly accounts: readonly string[];
  readonly data: ReadonlyUint8Array;
}

export interface DecodedMessage {
  readonly message: CompiledMessage;
  /** The static account keys, in message order. */
  readonly accounts: readonly string[];
  readonly instructions: readonly MessageInstruction[];
  /** The blockhash the message names. */
  readonly blockhash: string;
}

/** A message not made of static keys only (version 1, or one loading lookup tables). */
export class UndecodableMessage extends Error {
  override readonly name = "UndecodableMessage";
}

/** Decodes `messageBytes`; `UndecodableMessage` when an account would come from outside them. */
export function decodeMessage(messageBytes: ReadonlyUint8Array): DecodedMessage {
  const decoded = getCompiledTransactionMessageDecoder().decode(messageBytes);
  if (decoded.version === 1) throw new UndecodableMessage("a version 1 message");
  const message: CompiledMessage = decoded;
  if (message.version === 0 && (message.addressTableLookups ?? []).length > 0) {
    throw new UndecodableMessage("a message that loads accounts from lookup tables");
  }
  const accounts = message.staticAccounts as readonly string[];
  return { message, accounts, instructions: instructionsOf(message), blockhash: decoded.lifetimeToken };
}

/**
 * The message's top-level instructions with their accounts as addresses; an index outside the
 * static keys reads as "" (the relay refuses such a message before it reads them).
 */
export function instructionsOf(message: CompiledMessage): MessageInstruction[] {
  const accounts = message.staticAccounts as readonly string[];
  return message.instructions.map((compiled, index) => ({
    index,
    program: accounts[compiled.programAddressIndex] ?? "",
    accounts: (compiled.accountIndices ?? []).map((at) => accounts[at] ?? ""),
    data: compiled.data ?? new Uint8Array(),
  }));
}

/** The message of a transaction in wire format (signatures included). */
export function decodeWireMessage(wire: ReadonlyUint8Array): DecodedMessage {
  return decodeMessage(getTransactionDecoder().decode(wire).messageBytes);
}
