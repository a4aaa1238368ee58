/**
 * Reading confidential state from chain bytes (a trust boundary: the account's owner, length and
 * layout are checked before anything is used). Plain data out, so the operations never hold
 * decoder-specific shapes.
 */
import { type Address, address, getAddressEncoder, isSome } from "@solana/kit";
import {
  AccountState,
  findAssociatedTokenPda,
  getMintDecoder,
  getTokenDecoder,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { ChainPort } from "../chain/chain-port";
import type { AccountRecord } from "../chain/chain-types";
import { ConfidentialError } from "./errors";

/** Token-2022 base account length; a mint with extensions is padded past it, a token account too. */
const BASE_ACCOUNT_LENGTH = 165;
// Made once: building a decoder (every extension's codec) costs more than most decodes.
const TOKEN_DECODER = getTokenDecoder();
const MINT_DECODER = getMintDecoder();
/** Derived token accounts kept (owner and mint to address: pure, so never stale); oldest dropped first. */
const TOKEN_ACCOUNTS_KEPT = 10_000;
const tokenAccounts = new Map<string, Promise<Address>>();

/** The ConfidentialTransferAccount extension of a Token-2022 account, plus the base fields we use. */
export interface ConfidentialAccountState {
  readonly address: Address;
  readonly owner: Address;
  readonly mint: Address;
  /** The public (non-confidential) balance. */
  readonly publicAmount: bigint;
  readonly frozen: boolean;
  readonly approved: boolean;
  readonly elgamalPubkey: Uint8Array;
  readonly pendingBalanceLow: Uint8Array;
  readonly pendingBalanceHigh: Uint8Array;
  readonly availableBalance: Uint8Array;
  readonly decryptableAvailableBalance: Uint8Array;
  readonly allowConfidentialCredits: boolean;
  readonly allowNonConfidentialCredits: boolean;
  readonly pendingBalanceCreditCounter: bigint;
  readonly maximumPendingBalanceCreditCounter: bigint;
  readonly expectedPendingBalanceCreditCounter: bigint;
  readonly actualPendingBalanceCreditCounter: bigint;
}

/** The owner's Token-2022 associated token account for `mint`. */
export function findTokenAccount(owner: string, mint: string): Promise<Address> {
  // The derivation (SHA-256 per bump, an on-curve check each) runs several times per transfer for
  // the same few owners: kept per (owner, mint).
  const key = `${owner}:${mint}`;
  let found = tokenAccounts.get(key);
  if (found === undefined) {
    found = findAssociatedTokenPda({
      owner: address(owner),
      mint: address(mint),
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    }).then(([ata]) => ata);
    found.catch(() => tokenAccounts.delete(key));
    if (tokenAccounts.size >= TOKEN_ACCOUNTS_KEPT) {
      const oldest = tokenAccounts.keys().next().value;
      if (oldest !== undefined) tokenAccounts.delete(oldest);
    }
    tokenAccounts.set(key, found);
  }
  return found;
}

/**
 * The token account's base fields and confidential extension; `null` when the account does not
 * exist. `confidential` is `null` when the account exists but was never configured.
 */
export async function readTokenAccount(
  chain: ChainPort,
  tokenAccount: string,
): Promise<TokenAccountState | null> {
  return tokenAccountOf(tokenAccount, await chain.getAccount(tokenAccount));
}

/** A token account's base fields and confidential extension (see readTokenAccount). */
export interface TokenAccountState {
  readonly owner: Address;
  readonly mint: Address;
  /** The public (non-confidential) balance. */
  readonly amount: bigint;
  readonly confidential: ConfidentialAccountState | null;
}

/** readTokenAccount over an account already read (e.g. one of a getMultipleAccounts answer). */
export function tokenAccountOf(tokenAccount: string, record: AccountRecord | null): TokenAccountState | null {
  if (record === null) return null;
  if (record.owner !== TOKEN_2022_PROGRAM_ADDRESS || record.data.length < BASE_ACCOUNT_LENGTH) {
    throw new Error(`${tokenAccount} is not a Token-2022 token account`);
  }
  const token = TOKEN_DECODER.decode(record.data);
  const extension = isSome(token.extensions)
    ? token.extensions.value.find((entry) => entry.__kind === "ConfidentialTransferAccount")
    : undefined;
  if (extension === undefined || extension.__kind !== "ConfidentialTransferAccount") {
    return { owner: token.owner, mint: token.mint, amount: token.amount, confidential: null };
  }
  const bytes = (value: ArrayLike<number>) => Uint8Array.from(value);
  return {
    owner: token.owner,
    mint: token.mint,
    amount: token.amount,
    confidential: {
      address: address(tokenAccount),
      owner: token.owner,
      mint: token.mint,
      publicAmount: token.amount,
      frozen: token.state === AccountState.Frozen,
      approved: extension.approved,
      elgamalPubkey: addressBytes(extension.elgamalPubkey),
      pendingBalanceLow: bytes(extension.pendingBalanceLow),
      pendingBalanceHigh: bytes(extension.pendingBalanceHigh),
      availableBalance: bytes(extension.availableBalance),
      decryptableAvailableBalance: bytes(extension.decryptableAvailableBalance),
      allowConfidentialCredits: extension.allowConfidentialCredits,
      allowNonConfidentialCredits: extension.allowNonConfidentialCredits,
      pendingBalanceCreditCounter: extension.pendingBalanceCreditCounter,
      maximumPendingBalanceCreditCounter: extension.maximumPendingBalanceCreditCounter,
      expectedPendingBalanceCreditCounter: extension.expectedPendingBalanceCreditCounter,
      actualPendingBalanceCreditCounter: extension.actualPendingBalanceCreditCounter,
    },
  };
}

/** The confidential state of an account that must be configured, else `null`. */
export async function readConfidentialState(
  chain: ChainPort,
  tokenAccount: string,
): Promise<ConfidentialAccountState | null> {
  return (await readTokenAccount(chain, tokenAccount))?.confidential ?? null;
}

/** The account's confidential state; `account_not_confidential_ready` when it has none. */
export function requireConfidentialState(
  tokenAccount: string,
  state: ConfidentialAccountState | null,
): ConfidentialAccountState {
  if (state === null) {
    throw new ConfidentialError("account_not_confidential_ready", `${tokenAccount} is not configured`);
  }
  return state;
}

/** readConfidentialState of an account that must be configured (`account_not_confidential_ready`). */
export async function readRequiredConfidentialState(
  chain: ChainPort,
  tokenAccount: string,
): Promise<ConfidentialAccountState> {
  return requireConfidentialState(tokenAccount, await readConfidentialState(chain, tokenAccount));
}

/** A mint's decimals and its confidential-transfer auditor ElGamal key (null when none). */
export async function readConfidentialMint(chain: ChainPort, mint: string): Promise<ConfidentialMint> {
  return confidentialMintOf(mint, await chain.getAccount(mint));
}

/** A confidential mint's decimals and auditor key. */
export interface ConfidentialMint {
  readonly decimals: number;
  readonly auditorElgamalPubkey: Uint8Array | null;
}

/** readConfidentialMint over an account already read. */
export function confidentialMintOf(mint: string, record: AccountRecord | null): ConfidentialMint {
  if (record === null || record.owner !== TOKEN_2022_PROGRAM_ADDRESS || record.data.length < 82) {
    throw new Error(`${mint} is not a Token-2022 mint`);
  }
  const decoded = MINT_DECODER.decode(record.data);
  const extension = isSome(decoded.extensions)
    ? decoded.extensions.value.find((entry) => entry.__kind === "ConfidentialTransferMint")
    : undefined;
  if (extension === undefined || extension.__kind !== "ConfidentialTransferMint") {
    throw new Error(`${mint} has no ConfidentialTransferMint extension`);
  }
  return {
    decimals: decoded.decimals,
    auditorElgamalPubkey: isSome(extension.auditorElgamalPubkey)
      ? addressBytes(extension.auditorElgamalPubkey.value)
      : null,
  };
}

/** Token-2022 stores ElGamal public keys in address-typed (32-byte) fields. */
function addressBytes(value: Address): Uint8Array {
  return Uint8Array.from(getAddressEncoder().encode(value));
}
