/**
 * The Compute Budget program as the runtime reads it (Agave's `compute-budget`): its address, the
 * unit limits a transaction gets, its instruction tags and the priority fee they set. The fee
 * calculators (transaction-fee.ts, the service's reserve bound, the localnet's getFeeForMessage)
 * and the instruction builders read these from here.
 */
import { address, type Instruction } from "@solana/kit";

export const COMPUTE_BUDGET_PROGRAM_ADDRESS = address("ComputeBudget111111111111111111111111111111");
/** ComputeBudgetInstruction tags (borsh): `SetComputeUnitLimit(u32)` and `SetComputeUnitPrice(u64)`. */
export const SET_COMPUTE_UNIT_LIMIT = 2;
export const SET_COMPUTE_UNIT_PRICE = 3;
/** No transaction gets more compute units than this, whatever it asks for. */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
/** The units an instruction that is not a builtin gets when the transaction sets no limit. */
export const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;

/**
 * The priority fee in lamports: ceil(price (micro-lamports per unit) x units / 10^6), the units
 * capped at MAX_COMPUTE_UNIT_LIMIT as the runtime caps them.
 */
export function priorityFeeLamports(microLamportsPerUnit: bigint, units: bigint): bigint {
  const capped = units > MAX_COMPUTE_UNIT_LIMIT ? MAX_COMPUTE_UNIT_LIMIT : units;
  return (microLamportsPerUnit * capped + 999_999n) / 1_000_000n;
}

/** A SetComputeUnitLimit instruction asking for `units` (at most MAX_COMPUTE_UNIT_LIMIT). */
export function setComputeUnitLimitInstruction(units: number): Instruction {
  const data = new Uint8Array(5);
  data[0] = SET_COMPUTE_UNIT_LIMIT;
  new DataView(data.buffer).setUint32(1, units, true);
  return { programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS, data };
}
