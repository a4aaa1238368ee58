/**
 * What every relayed-instruction check shares (see check-relayed-transaction.ts for the rules): the
 * context a transaction is checked against, the refusals, one instruction's verdict, and the
 * fee-payer position check every program's check uses (feePayerOutside).
 */
import { AccountRole, address } from "@solana/kit";
import type { CompiledMessage, MessageInstruction } from "../../reserve/message-instructions";

/** What the relay checks a transaction against: the service's keys and the authenticated agent. */
export interface RelayPolicyContext {
  /** The service's fee payer (the fee reserve): account 0 of every relayed transaction. */
  readonly feePayer: string;
  /** The agent-policy program. */
  readonly programId: string;
  readonly usdgMint: string;
  /** The agent the API key authenticated: only its PDA and its signer may appear as the agent. */
  readonly agent: { readonly pda: string; readonly signer: string };
  /** The cluster's rent-exempt minimum for an account of `space` bytes. */
  readonly rentExemptMinimum: (space: number) => bigint;
}

export type RelayRefusal =
  | "malformed_transaction"
  | "fee_payer_mismatch"
  | "unknown_program"
  | "instruction_not_allowed"
  | "fee_payer_misused"
  | "unexpected_signer"
  | "not_this_agent"
  | "missing_signature"
  | "address_lookup_not_allowed"
  | "record_without_transfer"
  | "account_not_consumed";

export type RelayCheck =
  | {
      readonly ok: true;
      /** Required signatures (the message header's), the fee payer's included. */
      readonly signatures: number;
      /** The base fee the fee payer pays: 5000 lamports a signature (priority fees are refused). */
      readonly feeLamports: bigint;
      /** Lamports the fee payer deposits through System CreateAccount (proof contexts). */
      readonly rentLamports: bigint;
      /** The exact message bytes the fee payer signs. */
      readonly messageBytes: Uint8Array;
      readonly feePayerIndex: 0;
      /** The instructions as checked (program, accounts, data), for what the relay reads next. */
      readonly instructions: readonly RelayedInstruction[];
    }
  | { readonly ok: false; readonly reason: RelayRefusal; readonly message: string };

export type Refusal = Extract<RelayCheck, { ok: false }>;

export type { CompiledMessage };

/** One top-level instruction with its accounts resolved to addresses. */
export type RelayedInstruction = MessageInstruction;

/**
 * The instruction in the shape the generated (IDL) parsers read, which name its accounts; roles
 * play no part in reading them.
 */
export function parsableOf(instruction: RelayedInstruction) {
  return {
    programAddress: address(instruction.program),
    accounts: instruction.accounts.map((account) => ({
      address: address(account),
      role: AccountRole.READONLY,
    })),
    data: instruction.data,
  };
}

/**
 * An allowed instruction: the account it creates (a proof context or a staging buffer, which the
 * same transaction must then consume) and the rent the fee payer deposits.
 */
export type Verdict =
  | {
      readonly ok: true;
      readonly created?: { readonly address: string; readonly kind: "context" | "buffer" };
      readonly rentLamports: bigint;
    }
  | Refusal;

export const ALLOWED: Verdict = { ok: true, rentLamports: 0n };

/**
 * One program's check of one relayed instruction (check-relayed-transaction.ts picks it by program
 * id). `isSigner` says whether an account signs the whole transaction: a System CreateAccount's new
 * account must.
 */
export type InstructionCheck = (
  instruction: RelayedInstruction,
  ctx: RelayPolicyContext,
  isSigner: (account: string) => boolean,
) => Verdict;

/**
 * Refuses the fee payer at any position `may` does not allow, naming the position (and its IDL
 * role when the instruction has one). This is rule 6: the one check that catches a writable
 * fee-payer account handed to a program that would pass it on in a CPI.
 */
export function feePayerOutside(
  instruction: RelayedInstruction,
  label: string,
  ctx: RelayPolicyContext,
  may: (position: number) => boolean,
  roleOf: (position: number) => string | undefined = () => undefined,
): Refusal | undefined {
  for (const [position, account] of instruction.accounts.entries()) {
    if (account !== ctx.feePayer || may(position)) continue;
    const role = roleOf(position);
    return refuse(
      "fee_payer_misused",
      `${label} passes the fee payer as account ${position}${role ? ` (${role})` : ""}; it may appear only where it pays rent or receives it back`,
    );
  }
  return undefined;
}

/** A refusal with its reason and the message that names what was wrong. */
export function refuse(reason: RelayRefusal, message: string): Refusal {
  return { ok: false, reason, message };
}
