/**
 * An instruction as `jsonParsed` renders it: parsed for the instructions a validator has a parser
 * for and this localnet knows (SPL Token and Token-2022 `transfer` and `transferChecked`, what
 * payment verifiers such as x402 facilitators read), partially decoded (programId, accounts, base58
 * data) otherwise — as Agave falls back for a program it cannot parse or data that does not parse.
 */
import { TOKEN_PROGRAM_NAMES, TOKEN_TRANSFER_CHECKED_TAG, TOKEN_TRANSFER_TAG } from "@cpay/sdk/chain";
import { getBase58Decoder } from "@solana/kit";

const base58 = getBase58Decoder();

export interface RawInstruction {
  readonly programId: string;
  readonly accounts: readonly string[];
  readonly data: Uint8Array;
  readonly stackHeight: number | null;
}

export function parsedInstruction(ix: RawInstruction): Record<string, unknown> {
  const program = TOKEN_PROGRAM_NAMES[ix.programId];
  const parsed = program === undefined ? null : parseTokenInstruction(ix.accounts, ix.data);
  if (program === undefined || parsed === null) {
    return {
      programId: ix.programId,
      accounts: ix.accounts,
      data: base58.decode(ix.data),
      stackHeight: ix.stackHeight,
    };
  }
  return { parsed, program, programId: ix.programId, stackHeight: ix.stackHeight };
}

/** Agave's parse_token for the two transfers; null where it would not parse. */
function parseTokenInstruction(
  accounts: readonly string[],
  data: Uint8Array,
): { type: string; info: Record<string, unknown> } | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data[0] === TOKEN_TRANSFER_TAG && data.length === 9 && accounts.length >= 3) {
    const info = {
      source: accounts[0],
      destination: accounts[1],
      amount: view.getBigUint64(1, true).toString(),
      ...signers(accounts, 2),
    };
    return { type: "transfer", info };
  }
  if (data[0] === TOKEN_TRANSFER_CHECKED_TAG && data.length === 10 && accounts.length >= 4) {
    const info = {
      source: accounts[0],
      mint: accounts[1],
      destination: accounts[2],
      tokenAmount: uiTokenAmount(view.getBigUint64(1, true), data[9] ?? 0),
      ...signers(accounts, 3),
    };
    return { type: "transferChecked", info };
  }
  return null;
}

/** The authority, or a multisig authority and its signers when more accounts follow it. */
function signers(accounts: readonly string[], index: number): Record<string, unknown> {
  if (accounts.length > index + 1) {
    return { multisigAuthority: accounts[index], signers: accounts.slice(index + 1) };
  }
  return { authority: accounts[index] };
}

/** Agave's UiTokenAmount: the base units as a string, and the decimal amount trimmed of zeros. */
export function uiTokenAmount(amount: bigint, decimals: number): Record<string, unknown> {
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const uiAmountString = fraction === "" ? whole : `${whole}.${fraction}`;
  return { uiAmount: Number(uiAmountString), decimals, amount: amount.toString(), uiAmountString };
}
