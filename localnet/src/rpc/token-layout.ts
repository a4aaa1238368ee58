/**
 * The base layouts of SPL Token and Token-2022 accounts and mints, read just far enough to answer
 * getTokenAccountBalance and `jsonParsed` account requests.
 *
 * Token-2022 extension data is not parsed: `jsonParsed` renders an account only when it has no
 * extensions and otherwise falls back to base64 (which is what a validator does for any account it
 * cannot parse, so clients already handle it). Balances work for every token account, extensions
 * or not, since the base layout is a prefix of the extended one.
 */
import { getBase58Decoder } from "@solana/kit";
import {
  getMintSize,
  getTokenSize,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import type { AccountRecord, ClusterPort } from "../cluster/cluster-port";

const base58 = getBase58Decoder();

const ACCOUNT_LEN = getTokenSize();
const MINT_LEN = getMintSize();
/** Token-2022 stores an AccountType byte right after the 165-byte account base: 1 = mint, 2 = account. */
const ACCOUNT_TYPE_OFFSET = ACCOUNT_LEN;

export interface TokenAccountState {
  readonly mint: string;
  readonly owner: string;
  readonly amount: bigint;
  readonly delegate: string | null;
  readonly state: "uninitialized" | "initialized" | "frozen";
  readonly isNative: bigint | null;
  readonly delegatedAmount: bigint;
  readonly closeAuthority: string | null;
}

export interface MintState {
  readonly mintAuthority: string | null;
  readonly supply: bigint;
  readonly decimals: number;
  readonly isInitialized: boolean;
  readonly freezeAuthority: string | null;
}

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM_ADDRESS || owner === TOKEN_2022_PROGRAM_ADDRESS;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function optionalKey(data: Uint8Array, offset: number): string | null {
  return view(data).getUint32(offset, true) === 1
    ? base58.decode(data.subarray(offset + 4, offset + 36))
    : null;
}

/** The base state of a token account, or null when `account` is not one. */
export function readTokenAccount(account: AccountRecord): TokenAccountState | null {
  const { data } = account;
  if (!isTokenProgram(account.owner) || data.length < ACCOUNT_LEN) return null;
  if (
    data.length > ACCOUNT_LEN &&
    (account.owner === TOKEN_PROGRAM_ADDRESS || data[ACCOUNT_TYPE_OFFSET] !== 2)
  )
    return null;
  const state = data[108];
  if (state !== 1 && state !== 2) return null;
  const dv = view(data);
  return {
    mint: base58.decode(data.subarray(0, 32)),
    owner: base58.decode(data.subarray(32, 64)),
    amount: dv.getBigUint64(64, true),
    delegate: optionalKey(data, 72),
    state: state === 1 ? "initialized" : "frozen",
    isNative: dv.getUint32(109, true) === 1 ? dv.getBigUint64(113, true) : null,
    delegatedAmount: dv.getBigUint64(121, true),
    closeAuthority: optionalKey(data, 129),
  };
}

/** The base state of a mint, or null when `account` is not an initialized mint. */
export function readMint(account: AccountRecord): MintState | null {
  const { data } = account;
  if (!isTokenProgram(account.owner) || data.length < MINT_LEN) return null;
  if (
    data.length !== MINT_LEN &&
    (account.owner === TOKEN_PROGRAM_ADDRESS || data[ACCOUNT_TYPE_OFFSET] !== 1)
  )
    return null;
  if (data[45] !== 1) return null;
  return {
    mintAuthority: optionalKey(data, 0),
    supply: view(data).getBigUint64(36, true),
    decimals: data[44] as number,
    isInitialized: true,
    freezeAuthority: optionalKey(data, 46),
  };
}

/** Solana's `UiTokenAmount`: raw amount as a string, plus decimal renderings. */
export function uiTokenAmount(amount: bigint, decimals: number): Record<string, unknown> {
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/**
 * `jsonParsed` data for an extension-free token account or mint, or null to fall back to base64.
 * An account's `tokenAmount` needs its mint's decimals, so the mint is read from `cluster`.
 */
export function parseTokenAccountJson(
  cluster: ClusterPort,
  account: AccountRecord,
): Record<string, unknown> | null {
  const program = account.owner === TOKEN_PROGRAM_ADDRESS ? "spl-token" : "spl-token-2022";
  const space = account.data.length;
  if (space === ACCOUNT_LEN) {
    const token = readTokenAccount(account);
    const mintAccount = token && cluster.getAccount(token.mint);
    const mint = mintAccount && readMint(mintAccount);
    if (!token || !mint) return null;
    const info: Record<string, unknown> = {
      isNative: token.isNative !== null,
      mint: token.mint,
      owner: token.owner,
      state: token.state,
      tokenAmount: uiTokenAmount(token.amount, mint.decimals),
    };
    if (token.delegate) {
      info.delegate = token.delegate;
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, mint.decimals);
    }
    if (token.isNative !== null) info.rentExemptReserve = uiTokenAmount(token.isNative, mint.decimals);
    if (token.closeAuthority) info.closeAuthority = token.closeAuthority;
    return { program, parsed: { info, type: "account" }, space };
  }
  if (space === MINT_LEN) {
    const mint = readMint(account);
    if (!mint) return null;
    const info = {
      decimals: mint.decimals,
      freezeAuthority: mint.freezeAuthority,
      isInitialized: mint.isInitialized,
      mintAuthority: mint.mintAuthority,
      supply: mint.supply.toString(),
    };
    return { program, parsed: { info, type: "mint" }, space };
  }
  return null;
}
