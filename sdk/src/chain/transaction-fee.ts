/**
 * The fee a transaction pays, computed the way the runtime does (`solana_fee::calculate_fee`):
 * LiteSVM charges it but does not report it through its JS binding, and history needs it.
 *
 * fee = 5000 lamports x (transaction signatures + signatures verified by the ed25519 / secp256k1 /
 * secp256r1 precompiles, whose count is the first data byte of each of their instructions)
 *     + prioritization fee.
 * Prioritization fee: legacy/v0 = ceil(compute-unit price (micro-lamports) x compute-unit limit / 1e6);
 * v1 = the `priority fee lamports` of the message config.
 * Without SetComputeUnitLimit the limit is the SIMD-0170 default: 3,000 per builtin instruction
 * (compute budget included) + 200,000 per other instruction, capped at 1,400,000.
 *
 * Tests check the result against what LiteSVM actually debits from the fee payer.
 */
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT,
  priorityFeeLamports,
  SET_COMPUTE_UNIT_LIMIT,
  SET_COMPUTE_UNIT_PRICE,
} from "./compute-budget";
import type { DecodedMessage } from "./wire-transaction";

export const LAMPORTS_PER_SIGNATURE = 5000n;

const PRECOMPILES = new Set([
  "Ed25519SigVerify111111111111111111111111111",
  "KeccakSecp256k11111111111111111111111111111",
  "Secp256r1SigVerify1111111111111111111111111",
]);
// Builtins that are not (yet) BPF programs: they reserve 3,000 CU each by default (SIMD-0170).
const BUILTINS = new Set([
  "11111111111111111111111111111111",
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  "Vote111111111111111111111111111111111111111",
  "BPFLoader1111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  "LoaderV411111111111111111111111111111111111",
  "ZkE1Gama1Proof11111111111111111111111111111",
  ...PRECOMPILES,
]);

const MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT = 3_000n;

/** The fee (lamports) the runtime charges `tx`'s fee payer, success or failure alike. */
export function transactionFee(tx: DecodedMessage): bigint {
  let signatures = BigInt(tx.header.numRequiredSignatures);
  let computeUnitLimit: bigint | null = tx.v1ComputeUnitLimit === null ? null : BigInt(tx.v1ComputeUnitLimit);
  let computeUnitPrice = 0n;
  let defaultLimit = 0n;
  for (const ix of tx.instructions) {
    const program = tx.staticAccounts[ix.programIndex] ?? "";
    if (PRECOMPILES.has(program)) signatures += BigInt(ix.data[0] ?? 0);
    defaultLimit += BUILTINS.has(program)
      ? MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT
      : DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
    if (program !== COMPUTE_BUDGET_PROGRAM_ADDRESS || ix.data.length === 0) continue;
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === SET_COMPUTE_UNIT_LIMIT && ix.data.length >= 5) {
      computeUnitLimit = BigInt(view.getUint32(1, true));
    }
    if (ix.data[0] === SET_COMPUTE_UNIT_PRICE && ix.data.length >= 9)
      computeUnitPrice = view.getBigUint64(1, true);
  }
  const baseFee = signatures * LAMPORTS_PER_SIGNATURE;
  if (tx.version === 1) return baseFee + (tx.v1PriorityFeeLamports ?? 0n);
  return baseFee + priorityFeeLamports(computeUnitPrice, computeUnitLimit ?? defaultLimit);
}
