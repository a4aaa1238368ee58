/** The Compute Budget program's relayed instructions: a unit limit, and a unit price of zero. */
import { SET_COMPUTE_UNIT_LIMIT, SET_COMPUTE_UNIT_PRICE } from "@cpay/sdk/chain";
import { getU64Decoder } from "@solana/kit";
import { ALLOWED, feePayerOutside, type InstructionCheck, refuse } from "./verdict";

/**
 * Compute Budget: a unit limit is free; a unit price is a priority fee the fee payer would pay on
 * top of the base fee, so only a zero price passes. Heap frames and loaded-data limits are not
 * relayed.
 */
export const checkComputeBudget: InstructionCheck = (instruction, ctx) => {
  const { data } = instruction;
  const at = `instruction ${instruction.index}`;
  if (data[0] === SET_COMPUTE_UNIT_LIMIT && data.length === 5) {
    return (
      feePayerOutside(instruction, `${at} (Compute Budget SetComputeUnitLimit)`, ctx, () => false) ?? ALLOWED
    );
  }
  if (data[0] === SET_COMPUTE_UNIT_PRICE && data.length === 9) {
    const label = `${at} (Compute Budget SetComputeUnitPrice)`;
    const price = getU64Decoder().decode(data, 1);
    if (price > 0n) {
      return refuse(
        "fee_payer_misused",
        `${label} sets a priority fee of ${price} micro-lamports per unit, which the fee payer would pay`,
      );
    }
    return feePayerOutside(instruction, label, ctx, () => false) ?? ALLOWED;
  }
  return refuse(
    "instruction_not_allowed",
    `${at} (Compute Budget, tag ${data[0] ?? "none"}, ${data.length} bytes) is not relayed; only SetComputeUnitLimit and a zero SetComputeUnitPrice are`,
  );
};
