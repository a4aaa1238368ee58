/**
 * Rent the fee reserve advances: accounts it pays for whose rent the agent-policy program gives
 * back only to it, so the reserve is sure to get it back and the budget does not count it as lost
 * (reserve-charges.ts bounds it apart, by `RESERVE_ADVANCE_CAP_LAMPORTS`):
 * - a Receipt (`transfer_record`): its `rent_payer` is the payer, and only `receipt_close` signed
 *   by that payer closes it, paying it back; the receipt job does that about 1,000 slots after the
 *   transfer (transfers/close-receipts.ts credits it to the account charged);
 * - a hold (`agent_transfer` or `agent_confidential_transfer` above the HITL threshold): its
 *   `rent_payer` is the payer, and every way it closes (approved, rejected, or expired and closed by
 *   anyone) pays that payer back; the closing transaction's charge credits it.
 * Everything else the reserve pays for (a recipient's token account, proof contexts, agent
 * accounts, a System transfer) may not come back and is counted as lost until it does.
 *
 * Both sides are read from what the program itself did, never from what a message claims: the
 * advance made is the System CPI the program issued from the reserve into the receipt or hold
 * while executing that instruction (so an account merely named in a hold's slot, on a path that
 * holds nothing, is no advance), and the advance returned is the balance a hold-closing
 * instruction that succeeded took out of the hold it closed to the reserve.
 */
import {
  AgentPolicyInstruction,
  getPendingTransactionSize,
  getReceiptSize,
  identifyAgentPolicyInstruction,
} from "@cpay/sdk";
import type { TransactionRecord } from "@cpay/sdk/chain";
import { getU32Decoder, getU64Decoder } from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { decodeWireMessage, type MessageInstruction } from "./message-instructions";

/** A confidential hold (the public one is the generated PendingTransaction size, 416). */
export const CONFIDENTIAL_HOLD_SIZE = 544;

/** Where an instruction that creates an advanced account names it and its payer (the IDL's order). */
const MADE: ReadonlyMap<AgentPolicyInstruction, { account: number; payer: number; space: () => number }> =
  new Map([
    [AgentPolicyInstruction.TransferRecord, { account: 1, payer: 2, space: getReceiptSize }],
    [AgentPolicyInstruction.AgentTransfer, { account: 7, payer: 8, space: getPendingTransactionSize }],
    [
      AgentPolicyInstruction.AgentConfidentialTransfer,
      { account: 14, payer: 15, space: () => CONFIDENTIAL_HOLD_SIZE },
    ],
  ]);

/** Where an instruction that closes a hold names it and who gets its rent (the IDL's order). */
const RETURNED: ReadonlyMap<AgentPolicyInstruction, { account: number; receiver: number }> = new Map([
  [AgentPolicyInstruction.PendingApprove, { account: 3, receiver: 8 }],
  [AgentPolicyInstruction.ConfidentialPendingApprove, { account: 3, receiver: 11 }],
  [AgentPolicyInstruction.PendingReject, { account: 2, receiver: 3 }],
  [AgentPolicyInstruction.PendingCloseExpired, { account: 1, receiver: 2 }],
]);

/** The slot tables, for the test that checks them against the generated instruction parsers. */
export const ADVANCE_SLOTS = { made: MADE, returned: RETURNED } as const;

export interface AdvanceContext {
  readonly feePayer: string;
  readonly programId: string;
}

/**
 * The most `instruction` can make the reserve advance: the rent of the receipt or hold it creates
 * when the reserve is its payer (part of what the spend bound counts it may deposit), else 0.
 */
export function advanceBoundOf(
  instruction: MessageInstruction,
  ctx: AdvanceContext & { readonly rentExemptMinimum: (space: number) => bigint },
): bigint {
  const kind = instruction.program === ctx.programId ? kindOf(instruction) : undefined;
  const slots = kind === undefined ? undefined : MADE.get(kind);
  if (slots === undefined || instruction.accounts[slots.payer] !== ctx.feePayer) return 0n;
  return ctx.rentExemptMinimum(slots.space());
}

/**
 * The rent a landed transaction advanced (System CPIs the program made from the reserve into a
 * receipt or hold it created) and returned (holds closed to the reserve), in lamports. A failed
 * transaction moved nothing but its fee: both 0.
 */
export function advanceFlowsIn(
  landed: TransactionRecord,
  ctx: AdvanceContext,
): { readonly advanced: bigint; readonly returned: bigint } {
  if (landed.err !== null) return { advanced: 0n, returned: 0n };
  const { instructions } = decodeWireMessage(landed.wire);
  let advanced = 0n;
  let returned = 0n;
  for (const instruction of instructions) {
    const kind = instruction.program === ctx.programId ? kindOf(instruction) : undefined;
    if (kind === undefined) continue;
    const made = MADE.get(kind);
    if (made !== undefined && instruction.accounts[made.payer] === ctx.feePayer) {
      advanced += systemTransfersInto(
        landed,
        instruction.index,
        ctx.feePayer,
        instruction.accounts[made.account],
      );
    }
    const closed = RETURNED.get(kind);
    if (closed !== undefined && instruction.accounts[closed.receiver] === ctx.feePayer) {
      const at = landed.accountKeys.indexOf(instruction.accounts[closed.account] ?? "");
      const taken = at === -1 ? 0n : (landed.preBalances[at] ?? 0n) - (landed.postBalances[at] ?? 0n);
      if (taken > 0n) returned += taken;
    }
  }
  return { advanced, returned };
}

/** Lamports System CreateAccount/Transfer CPIs under top-level instruction `index` moved `from` -> `to`. */
function systemTransfersInto(
  landed: TransactionRecord,
  index: number,
  from: string,
  to: string | undefined,
): bigint {
  const keys = [
    ...landed.accountKeys,
    ...landed.loadedAddresses.writable,
    ...landed.loadedAddresses.readonly,
  ];
  let lamports = 0n;
  for (const group of landed.innerInstructions) {
    if (group.index !== index) continue;
    for (const inner of group.instructions) {
      if (keys[inner.programIdIndex] !== SYSTEM_PROGRAM_ADDRESS || inner.data.length < 12) continue;
      const tag = getU32Decoder().decode(inner.data);
      if (tag !== 0 && tag !== 2) continue;
      const [source, destination] = inner.accounts.map((at) => keys[at]);
      if (source === from && destination === to) lamports += getU64Decoder().decode(inner.data, 4);
    }
  }
  return lamports;
}

function kindOf(instruction: MessageInstruction): AgentPolicyInstruction | undefined {
  try {
    return identifyAgentPolicyInstruction(instruction.data);
  } catch {
    return undefined;
  }
}
