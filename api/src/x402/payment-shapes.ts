/**
 * The payments the facilitator accepts, as a table: one verifier (verify-payment.ts) reads every
 * payment the same way and takes from its shape only what differs between them. Both shapes have
 * `@x402/svm`'s `exact` layout — SetComputeUnitLimit, SetComputeUnitPrice, the transfer, then at most
 * four Memo or Lighthouse instructions — and differ in the transfer:
 *
 * - `transfer_checked`, a wallet's payment (`@x402/svm`'s client): instruction 2 is a Token or
 *   Token-2022 TransferChecked of exactly the amount, the official verifier's static path;
 * - `agent_transfer`, a cpay agent's (`@cpay/sdk/x402`): instruction 2 is cpay's program's
 *   `agent_transfer`, the agent's PDA spending under its on-chain policy; what it pays is what its
 *   simulation shows, one CPI TransferChecked of at least the amount, the official verifier's smart
 *   wallet path with cpay's program the only one allowed.
 *
 * Their caps are the official verifier's: priority fee at most 5,000,000 micro-lamports per unit on
 * the static path and 50,000 on the smart-wallet path; compute units at most 400,000 on both (the
 * smart-wallet path's default, set as the static path's `maxComputeUnits` option too), so the most
 * a payment can cost the fee reserve is known before it signs.
 */
import { AgentPolicyInstruction, identifyAgentPolicyInstruction } from "@cpay/sdk";
import type { ReadonlyUint8Array } from "@solana/kit";
import { isTransferChecked, type ResolvedInstruction } from "./token-transfers";
import { X402_REASONS, type X402Reason } from "./x402-refusal";

export type PaymentShapeName = "transfer_checked" | "agent_transfer";

export interface PaymentShape {
  readonly name: PaymentShapeName;
  /** Whether `ix` (instruction 2) is this shape's transfer; `programId` is cpay's program. */
  readonly isTransfer: (ix: ResolvedInstruction, programId: string) => boolean;
  readonly maxComputeUnits: number;
  readonly maxPriorityFeeMicroLamports: bigint;
  /** Where the payment's transfer is read before it lands: the instruction, or the simulation's CPIs. */
  readonly transferIn: "instruction" | "simulation";
  /** `exact`: the amount asked, no more (static path); `at_least`: the amount or more (smart wallet). */
  readonly amountRule: "exact" | "at_least";
  /** What a failed simulation is refused as. */
  readonly simulationRefusal: X402Reason;
}

export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
/** Phantom's wallet-protection assertions: `@x402/svm` lets them follow the transfer. */
export const LIGHTHOUSE_PROGRAM = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95";
export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";

export const PAYMENT_SHAPES: readonly PaymentShape[] = [
  {
    name: "transfer_checked",
    isTransfer: (ix) => isTransferChecked(ix),
    maxComputeUnits: 400_000,
    maxPriorityFeeMicroLamports: 5_000_000n,
    transferIn: "instruction",
    amountRule: "exact",
    simulationRefusal: X402_REASONS.simulationFailed,
  },
  {
    name: "agent_transfer",
    isTransfer: (ix, programId) => ix.program === programId && isAgentTransfer(ix.data),
    maxComputeUnits: 400_000,
    maxPriorityFeeMicroLamports: 50_000n,
    transferIn: "simulation",
    amountRule: "at_least",
    simulationRefusal: X402_REASONS.smartWalletSimulationFailed,
  },
];

/** The shape whose transfer `ix` is, if any. */
export function shapeOf(ix: ResolvedInstruction, programId: string): PaymentShape | null {
  return PAYMENT_SHAPES.find((shape) => shape.isTransfer(ix, programId)) ?? null;
}

function isAgentTransfer(data: ReadonlyUint8Array): boolean {
  try {
    return identifyAgentPolicyInstruction(data) === AgentPolicyInstruction.AgentTransfer;
  } catch {
    return false;
  }
}
