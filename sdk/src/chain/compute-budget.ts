/**
 * The Compute Budget program as the fee calculators read it (transaction-fee.ts, the service's
 * reserve bound, the localnet's getFeeForMessage): its address and instruction tags (from
 * @solana-program/compute-budget, here for the packages that read them through `@cpay/sdk/chain`),
 * the units an instruction gets without a SetComputeUnitLimit, and the priority fee.
 */
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  MAX_COMPUTE_UNIT_LIMIT,
  SET_COMPUTE_UNIT_LIMIT_DISCRIMINATOR,
  SET_COMPUTE_UNIT_PRICE_DISCRIMINATOR,
} from "@solana-program/compute-budget";

export { COMPUTE_BUDGET_PROGRAM_ADDRESS };
/** ComputeBudgetInstruction tags (borsh): `SetComputeUnitLimit(u32)` and `SetComputeUnitPrice(u64)`. */
export const SET_COMPUTE_UNIT_LIMIT = SET_COMPUTE_UNIT_LIMIT_DISCRIMINATOR;
export const SET_COMPUTE_UNIT_PRICE = SET_COMPUTE_UNIT_PRICE_DISCRIMINATOR;
/** The units an instruction that is not a builtin gets when the transaction sets no limit. */
export const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;

/**
 * The priority fee in lamports: ceil(price (micro-lamports per unit) x units / 10^6), the units
 * capped at the most a transaction gets (1,400,000) as the runtime caps them.
 */
export function priorityFeeLamports(microLamportsPerUnit: bigint, units: bigint): bigint {
  const max = BigInt(MAX_COMPUTE_UNIT_LIMIT);
  const capped = units > max ? max : units;
  return (microLamportsPerUnit * capped + 999_999n) / 1_000_000n;
}
