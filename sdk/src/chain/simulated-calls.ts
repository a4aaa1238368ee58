/**
 * A simulation's inner instructions, as the chain port gives them (chain-port.ts `SimulatedCalls`):
 * indexes into account keys, like a landed transaction's meta. Solana RPC answers a simulation's
 * inner instructions in their parsed (`jsonParsed`) form whatever the encoding asked for: an
 * instruction of a program it cannot parse comes with its accounts as addresses and its data in
 * base58; a token transfer comes parsed (`transfer`, `transferChecked`), and is re-encoded here into
 * the exact bytes and account order the Token programs take (a TransferChecked is its tag 12, the
 * amount as u64 little-endian, the decimals; source, mint, destination, authority, then any multisig
 * signers). Any other parsed instruction keeps its program only (no accounts, empty data): what it
 * did is not recoverable from the parsed form, and no reader of the port looks inside one.
 */
import { getBase58Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import type { SimulatedCalls } from "./chain-port";
import type { InnerInstructionGroup } from "./chain-types";
import { objectAt, text, UnexpectedRpcAnswer, u64 } from "./rpc-normalize";
import { TOKEN_PROGRAM_IDS, TOKEN_TRANSFER_CHECKED_TAG, TOKEN_TRANSFER_TAG } from "./token-programs";

type Json = Record<string, unknown>;
type Instruction = InnerInstructionGroup["instructions"][number];

/** The inner instructions of simulation answer `value` of transaction `wire`, keyed to `accountKeys`. */
export function simulatedCallsOf(value: unknown, wire: Uint8Array, field: string): Required<SimulatedCalls> {
  const { messageBytes } = getTransactionDecoder().decode(wire);
  const accountKeys: string[] = [
    ...getCompiledTransactionMessageDecoder().decode(messageBytes).staticAccounts,
  ];
  const indexOf = (address: string): number => {
    const at = accountKeys.indexOf(address);
    if (at >= 0) return at;
    accountKeys.push(address);
    return accountKeys.length - 1;
  };
  const groups = objectAt(value, field).innerInstructions;
  if (groups === null || groups === undefined) return { innerInstructions: [], accountKeys };
  if (!Array.isArray(groups)) throw new UnexpectedRpcAnswer(`${field}.innerInstructions`, "is not an array");
  const innerInstructions = groups.map((group, g) => {
    const at = `${field}.innerInstructions[${g}]`;
    const { index, instructions } = objectAt(group, at);
    if (!Array.isArray(instructions)) throw new UnexpectedRpcAnswer(`${at}.instructions`, "is not an array");
    return {
      index: Number(u64(index, `${at}.index`)),
      instructions: instructions.map((item, i) =>
        instructionOf(objectAt(item, `${at}.instructions[${i}]`), indexOf),
      ),
    };
  });
  return { innerInstructions, accountKeys };
}

function instructionOf(ix: Json, indexOf: (address: string) => number): Instruction {
  const programId = text(ix.programId, "programId");
  const programIdIndex = indexOf(programId);
  const stackHeight = ix.stackHeight === null || ix.stackHeight === undefined ? 2 : Number(ix.stackHeight);
  if (ix.parsed === undefined) {
    if (!Array.isArray(ix.accounts)) throw new UnexpectedRpcAnswer("accounts", "is not an array");
    return {
      programIdIndex,
      accounts: ix.accounts.map((account) => indexOf(text(account, "accounts[]"))),
      data: Uint8Array.from(getBase58Encoder().encode(text(ix.data, "data"))),
      stackHeight,
    };
  }
  const transfer = TOKEN_PROGRAM_IDS.has(programId) ? tokenTransferOf(ix.parsed) : null;
  if (transfer === null) return { programIdIndex, accounts: [], data: new Uint8Array(), stackHeight };
  return { programIdIndex, accounts: transfer.accounts.map(indexOf), data: transfer.data, stackHeight };
}

/** A parsed Token `transfer` / `transferChecked` as its accounts and instruction bytes; null otherwise. */
function tokenTransferOf(parsed: unknown): { accounts: string[]; data: Uint8Array } | null {
  if (parsed === null || typeof parsed !== "object") return null;
  const { type, info } = parsed as Json;
  if ((type !== "transfer" && type !== "transferChecked") || info === null || typeof info !== "object") {
    return null;
  }
  const fields = info as Json;
  const authority = text(fields.authority ?? fields.multisigAuthority, "info.authority");
  const signers = Array.isArray(fields.signers)
    ? fields.signers.map((signer) => text(signer, "info.signers[]"))
    : [];
  if (type === "transfer") {
    const data = new Uint8Array(9);
    data[0] = TOKEN_TRANSFER_TAG;
    new DataView(data.buffer).setBigUint64(1, baseUnits(fields.amount, "info.amount"), true);
    return {
      accounts: [
        text(fields.source, "info.source"),
        text(fields.destination, "info.destination"),
        authority,
        ...signers,
      ],
      data,
    };
  }
  const tokenAmount = objectAt(fields.tokenAmount, "info.tokenAmount");
  const data = new Uint8Array(10);
  data[0] = TOKEN_TRANSFER_CHECKED_TAG;
  new DataView(data.buffer).setBigUint64(1, baseUnits(tokenAmount.amount, "info.tokenAmount.amount"), true);
  data[9] = Number(u64(tokenAmount.decimals, "info.tokenAmount.decimals"));
  return {
    accounts: [
      text(fields.source, "info.source"),
      text(fields.mint, "info.mint"),
      text(fields.destination, "info.destination"),
      authority,
      ...signers,
    ],
    data,
  };
}

/** A token amount as parsed instructions give it: a decimal string of base units (or a number). */
function baseUnits(value: unknown, field: string): bigint {
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return BigInt(value);
  return u64(value, field);
}
