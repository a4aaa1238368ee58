/**
 * Token transfers as the facilitator reads them, wherever they are: a top-level instruction of the
 * payment, an inner instruction its simulation made, or one the landed transaction's meta records.
 * A TransferChecked (tag 12: amount u64 little-endian, decimals; accounts source, mint, destination,
 * authority) is what x402's `exact` scheme pays with; a plain Transfer (tag 3) carries no mint, so it
 * is read only to be counted (a payment makes exactly one transfer).
 */
import {
  type InnerInstructionGroup,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_IDS,
  TOKEN_TRANSFER_CHECKED_TAG,
  TOKEN_TRANSFER_TAG,
} from "@cpay/sdk/chain";
import { type Address, getU64Decoder, type ReadonlyUint8Array } from "@solana/kit";
import { findAssociatedTokenPda } from "@solana-program/token-2022";

export const TOKEN_PROGRAM = TOKEN_PROGRAM_ID;
export const TOKEN_2022_PROGRAM = TOKEN_2022_PROGRAM_ID;

/** An instruction with its program and accounts as addresses. */
export interface ResolvedInstruction {
  readonly program: string;
  readonly accounts: readonly string[];
  readonly data: ReadonlyUint8Array;
}

/** A token transfer; `mint` is null for a plain Transfer (which names none). */
export interface TokenTransfer {
  readonly program: string;
  readonly source: string;
  readonly mint: string | null;
  readonly destination: string;
  readonly authority: string;
  readonly amount: bigint;
}

/** Whether `ix` is a Token or Token-2022 TransferChecked. */
export function isTransferChecked(ix: ResolvedInstruction): boolean {
  return TOKEN_PROGRAM_IDS.has(ix.program) && ix.data[0] === TOKEN_TRANSFER_CHECKED_TAG;
}

/** The transfer `ix` makes, or null when it is no token transfer (or a malformed one). */
export function tokenTransferOf(ix: ResolvedInstruction): TokenTransfer | null {
  if (!TOKEN_PROGRAM_IDS.has(ix.program)) return null;
  const [source, second, third, fourth] = ix.accounts;
  if (ix.data[0] === TOKEN_TRANSFER_CHECKED_TAG && ix.data.length >= 10 && fourth !== undefined) {
    return {
      program: ix.program,
      source: source as string,
      mint: second as string,
      destination: third as string,
      authority: fourth,
      amount: getU64Decoder().decode(ix.data, 1),
    };
  }
  if (ix.data[0] === TOKEN_TRANSFER_TAG && ix.data.length >= 9 && third !== undefined) {
    return {
      program: ix.program,
      source: source as string,
      mint: null,
      destination: second as string,
      authority: third,
      amount: getU64Decoder().decode(ix.data, 1),
    };
  }
  return null;
}

/** Every token transfer among inner instructions `groups`, whose indexes point into `accountKeys`. */
export function innerTransfersOf(
  groups: readonly InnerInstructionGroup[],
  accountKeys: readonly string[],
): TokenTransfer[] {
  return groups.flatMap((group) =>
    group.instructions.flatMap((ix) => {
      const transfer = tokenTransferOf({
        program: accountKeys[ix.programIdIndex] ?? "",
        accounts: ix.accounts.map((at) => accountKeys[at] ?? ""),
        data: ix.data,
      });
      return transfer === null ? [] : [transfer];
    }),
  );
}

/** The associated token account of `owner` for `mint` under `tokenProgram`. */
export async function associatedTokenAccountOf(
  owner: string,
  mint: string,
  tokenProgram: string,
): Promise<string> {
  const [ata] = await findAssociatedTokenPda({
    owner: owner as Address,
    mint: mint as Address,
    tokenProgram: tokenProgram as Address,
  });
  return ata;
}
