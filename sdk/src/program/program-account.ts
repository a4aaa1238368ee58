/**
 * Account bytes are a trust boundary (STYLE 3): before any of the program's accounts is read, its
 * owner, its length and its discriminator are checked, here, once for every reader.
 */
import type { FixedSizeDecoder, ReadonlyUint8Array } from "@solana/kit";

/** The parts of an account record the checks read (a chain port's `AccountRecord` fits it). */
export interface OwnedBytes {
  readonly owner: string;
  readonly data: Uint8Array;
}

/**
 * True when `account` is an account of the program `programId` of exactly `size` bytes that starts
 * with `discriminator`: what must hold before its bytes are read as that account.
 */
export function isProgramAccount<T extends OwnedBytes>(
  account: T | null | undefined,
  programId: string,
  discriminator: ReadonlyUint8Array,
  size: number,
): account is T {
  if (account?.owner !== programId || account.data.length !== size) return false;
  return discriminator.every((byte, i) => account.data[i] === byte);
}

/** The account decoded by `decoder` when it passes isProgramAccount (size: the decoder's), else null. */
export function decodeProgramAccount<T>(
  account: OwnedBytes | null | undefined,
  programId: string,
  discriminator: ReadonlyUint8Array,
  decoder: FixedSizeDecoder<T>,
): T | null {
  return isProgramAccount(account, programId, discriminator, decoder.fixedSize)
    ? decoder.decode(account.data)
    : null;
}
