/**
 * The most a transaction can cost the fee reserve, read from the exact message bytes it signs:
 * 5,000 lamports per signature (plus any priority fee), and every lamport an instruction can move
 * out of the reserve — System CreateAccount/Transfer from it (their amounts are in the data), an
 * Associated Token account it opens, the agent-policy program's accounts it pays for (agent, policy
 * and handle; a hold; a receipt; the config) and a Token-2022 reallocation for the confidential
 * extension. An instruction that could take the reserve's lamports in a way not listed here has no
 * bound and is never signed (`UnboundedSpend`): the bound must be a maximum, never a guess. Of the
 * deposits, the part that can only come back to the reserve (a receipt's or hold's rent it pays,
 * advances.ts) is also given apart: the budget bounds it as an advance, not as a loss.
 */

import {
  AgentPolicyInstruction,
  BPF_LOADER_UPGRADEABLE_ADDRESS,
  getAgentSize,
  getConfigSize,
  getHandleSize,
  getPendingTransactionSize,
  getPolicySize,
  getReceiptSize,
  identifyAgentPolicyInstruction,
} from "@cpay/sdk";
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT,
  LAMPORTS_PER_SIGNATURE,
  priorityFeeLamports,
  SET_COMPUTE_UNIT_LIMIT,
  SET_COMPUTE_UNIT_PRICE,
} from "@cpay/sdk/chain";
import { getU32Decoder, getU64Decoder, type ReadonlyUint8Array } from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS } from "@solana-program/zk-elgamal-proof";
import { advanceBoundOf, CONFIDENTIAL_HOLD_SIZE } from "./advances";
import {
  type CompiledMessage,
  decodeMessage,
  type MessageInstruction,
  UndecodableMessage,
} from "./message-instructions";

/** A Token-2022 account of the USDG mint: base 165 + account type + ImmutableOwner (the ATA's). */
export const TOKEN_ACCOUNT_SIZE = 170;
/** The same account with the ConfidentialTransferAccount extension (295 bytes + 4 of TLV header). */
export const CONFIDENTIAL_TOKEN_ACCOUNT_SIZE = TOKEN_ACCOUNT_SIZE + 4 + 295;

/** What the bound needs from the service: whose lamports, which program, rent. */
export interface SpendBoundContext {
  readonly feePayer: string;
  readonly programId: string;
  readonly rentExemptMinimum: (space: number) => bigint;
}

/** A transaction whose cost to the reserve cannot be bounded from its bytes. */
export class UnboundedSpend extends Error {
  override readonly name = "UnboundedSpend";
}

export interface SpendBound {
  readonly feeLamports: bigint;
  readonly depositLamports: bigint;
  /** The part of `depositLamports` that can only come back to the reserve (advances.ts). */
  readonly advanceLamports: bigint;
  /** The blockhash the message names: until it expires, the transaction may still land. */
  readonly blockhash: string;
}

/** The most the message in `messageBytes` can cost the reserve (fees and deposits), or `UnboundedSpend`. */
export function spendBoundOf(messageBytes: ReadonlyUint8Array, ctx: SpendBoundContext): SpendBound {
  let decoded: ReturnType<typeof decodeMessage>;
  try {
    decoded = decodeMessage(messageBytes);
  } catch (error) {
    if (error instanceof UndecodableMessage) throw new UnboundedSpend(error.message);
    throw error;
  }
  let depositLamports = 0n;
  let advanceLamports = 0n;
  for (const instruction of decoded.instructions) {
    if (!instruction.accounts.includes(ctx.feePayer)) continue;
    depositLamports += instructionBound(instruction, ctx);
    advanceLamports += advanceBoundOf(instruction, ctx);
  }
  return {
    feeLamports: feesOf(decoded.message, decoded.accounts),
    depositLamports,
    advanceLamports,
    blockhash: decoded.blockhash,
  };
}

/** The base fee per signature, plus a priority fee at the highest unit count the message allows. */
function feesOf(message: CompiledMessage, accounts: readonly string[]): bigint {
  let price = 0n;
  let limit: bigint | null = null;
  for (const compiled of message.instructions) {
    if (accounts[compiled.programAddressIndex] !== COMPUTE_BUDGET_PROGRAM_ADDRESS) continue;
    const data = compiled.data ?? new Uint8Array();
    if (data[0] === SET_COMPUTE_UNIT_LIMIT && data.length === 5)
      limit = BigInt(getU32Decoder().decode(data, 1));
    if (data[0] === SET_COMPUTE_UNIT_PRICE && data.length === 9) price = getU64Decoder().decode(data, 1);
  }
  const units = limit ?? DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT * BigInt(message.instructions.length);
  return (
    LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts) + priorityFeeLamports(price, units)
  );
}

/** What one instruction naming the fee payer can move out of it. */
function instructionBound(instruction: MessageInstruction, ctx: SpendBoundContext): bigint {
  const rent = ctx.rentExemptMinimum;
  const at = () => `instruction ${instruction.index} (${instruction.program})`;
  switch (instruction.program) {
    case SYSTEM_PROGRAM_ADDRESS:
      return systemBound(instruction, ctx, at);
    case ASSOCIATED_TOKEN_PROGRAM_ADDRESS:
      // Create (no data or 0) and CreateIdempotent (1) take the rent from the payer; RecoverNested none.
      return instruction.data.length === 0 || instruction.data[0] === 0 || instruction.data[0] === 1
        ? rent(TOKEN_ACCOUNT_SIZE)
        : 0n;
    case TOKEN_2022_PROGRAM_ADDRESS:
      // Reallocate (29) takes the new extension's rent from its payer; CreateNativeMint (31) a mint's.
      if (instruction.data[0] === 29) return confidentialReallocation(ctx);
      if (instruction.data[0] === 31) throw new UnboundedSpend(`${at()}: CreateNativeMint`);
      return 0n;
    case ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS:
      // Verifies and CloseContextState never debit an account they do not own; rent only comes back.
      return 0n;
    case BPF_LOADER_UPGRADEABLE_ADDRESS: {
      // InitializeBuffer, Write, Close (rent back) move nothing out of the payer; Deploy would.
      const tag = instruction.data.length >= 4 ? getU32Decoder().decode(instruction.data) : -1;
      if (tag === 0 || tag === 1 || tag === 5) return 0n;
      throw new UnboundedSpend(`${at()}: loader instruction ${tag}`);
    }
    case COMPUTE_BUDGET_PROGRAM_ADDRESS:
      return 0n;
    case ctx.programId:
      return agentPolicyBound(instruction, ctx, at);
    default:
      throw new UnboundedSpend(`${at()}: a program the reserve does not pay for`);
  }
}

function systemBound(instruction: MessageInstruction, ctx: SpendBoundContext, at: () => string): bigint {
  const { data, accounts } = instruction;
  const tag = data.length >= 4 ? getU32Decoder().decode(data) : -1;
  // CreateAccount (0) and Transfer (2): u32 tag, u64 lamports, moved out of the first account; the
  // fee payer anywhere else only receives. Any other instruction naming it (Assign, Allocate, the
  // seeded and nonce forms) could hand it or its lamports away.
  if ((tag === 0 || tag === 2) && data.length >= 12) {
    return accounts[0] === ctx.feePayer ? getU64Decoder().decode(data, 4) : 0n;
  }
  throw new UnboundedSpend(`${at()}: System instruction ${tag} with the fee payer`);
}

function agentPolicyBound(instruction: MessageInstruction, ctx: SpendBoundContext, at: () => string): bigint {
  const rent = ctx.rentExemptMinimum;
  let kind: AgentPolicyInstruction;
  try {
    kind = identifyAgentPolicyInstruction(instruction.data);
  } catch {
    throw new UnboundedSpend(`${at()}: not an agent-policy instruction`);
  }
  switch (kind) {
    case AgentPolicyInstruction.AgentCreate:
      return rent(getAgentSize()) + rent(getPolicySize()) + rent(getHandleSize());
    case AgentPolicyInstruction.HandleRegister:
      return rent(getHandleSize());
    case AgentPolicyInstruction.ConfigInitialize:
      return rent(getConfigSize());
    case AgentPolicyInstruction.AgentTransfer:
      return rent(getPendingTransactionSize());
    case AgentPolicyInstruction.AgentConfidentialTransfer:
      return rent(CONFIDENTIAL_HOLD_SIZE);
    case AgentPolicyInstruction.TransferRecord:
      return rent(getReceiptSize());
    case AgentPolicyInstruction.AgentConfidentialConfigure:
      return confidentialReallocation(ctx);
    default:
      // The program only debits the payer through the creations above; elsewhere the fee payer can
      // only receive rent back (a hold's or a context's).
      return 0n;
  }
}

/** Rent a token account's confidential extension adds (Reallocate's payer pays the difference). */
function confidentialReallocation(ctx: SpendBoundContext): bigint {
  return ctx.rentExemptMinimum(CONFIDENTIAL_TOKEN_ACCOUNT_SIZE) - ctx.rentExemptMinimum(TOKEN_ACCOUNT_SIZE);
}
