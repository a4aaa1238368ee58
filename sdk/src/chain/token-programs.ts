/**
 * The Token programs and the two transfer instructions that payments are read from: the localnet
 * renders them parsed, the chain port re-encodes their parsed form, and the x402 facilitator reads
 * them out of payments — one list of the programs and tags for all three.
 */
import {
  TOKEN_2022_PROGRAM_ADDRESS,
  TRANSFER_CHECKED_DISCRIMINATOR,
  TRANSFER_DISCRIMINATOR,
} from "@solana-program/token-2022";

/** The original SPL Token program (its instructions share Token-2022's layout for transfers). */
export const TOKEN_PROGRAM_ID = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM_ID: string = TOKEN_2022_PROGRAM_ADDRESS;
/** Each Token program with the name Solana RPC gives it in a parsed instruction. */
export const TOKEN_PROGRAM_NAMES: Readonly<Record<string, string>> = {
  [TOKEN_PROGRAM_ID]: "spl-token",
  [TOKEN_2022_PROGRAM_ID]: "spl-token-2022",
};
export const TOKEN_PROGRAM_IDS: ReadonlySet<string> = new Set(Object.keys(TOKEN_PROGRAM_NAMES));
/** Transfer (tag 3: amount u64 LE; source, destination, authority). */
export const TOKEN_TRANSFER_TAG: number = TRANSFER_DISCRIMINATOR;
/** TransferChecked (tag 12: amount u64 LE, decimals; source, mint, destination, authority). */
export const TOKEN_TRANSFER_CHECKED_TAG: number = TRANSFER_CHECKED_DISCRIMINATOR;
