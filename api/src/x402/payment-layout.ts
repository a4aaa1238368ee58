/**
 * The payment's instructions checked from its bytes alone, before anything runs: the fee payer in
 * none of them, `@x402/svm`'s `exact` layout (payment-shapes.ts) with the compute budget within its
 * shape's caps, and the memo the requirement asks for. Each rule refuses with the reason the
 * official verifier gives it (x402-refusal.ts).
 *
 * Fee payer isolation is stricter than the official static path, which only keeps the fee payer from
 * being the transfer's authority: here it may be in no instruction's accounts at all (nor be a
 * program), as on the official smart-wallet path. Solana takes signer and writable flags from the
 * message, not from the instruction naming an account, so the fee payer named anywhere would hand
 * that instruction a writable signer holding the reserve's lamports.
 */
import { getU32Decoder, getU64Decoder } from "@solana/kit";
import {
  COMPUTE_BUDGET_PROGRAM,
  LIGHTHOUSE_PROGRAM,
  MEMO_PROGRAM,
  PAYMENT_SHAPES,
  type PaymentShape,
  shapeOf,
} from "./payment-shapes";
import type { PaymentTransaction } from "./payment-transaction";
import { tokenTransferOf } from "./token-transfers";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

const MIN_INSTRUCTIONS = 3;
const MAX_INSTRUCTIONS = 7;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;
/** What an instruction after the transfer is refused as, by its position (3, 4, 5, 6). */
const UNKNOWN_AT = [
  X402_REASONS.unknownFourth,
  X402_REASONS.unknownFifth,
  X402_REASONS.unknownSixth,
  X402_REASONS.unknownSeventh,
] as const;

/** The payment's shape once its layout passed every rule above, or throws X402Refusal. */
export function checkLayout(
  tx: PaymentTransaction,
  ctx: { readonly feePayer: string; readonly programId: string },
  memo: string | undefined,
): PaymentShape {
  checkFeePayerIsolated(tx, ctx.feePayer);
  const { instructions } = tx;
  if (instructions.length < MIN_INSTRUCTIONS || instructions.length > MAX_INSTRUCTIONS) {
    throw new X402Refusal(
      X402_REASONS.instructionsLength,
      `the transaction has ${instructions.length} instructions; an exact payment has ${MIN_INSTRUCTIONS} to ${MAX_INSTRUCTIONS}: compute limit, compute price, the transfer, then only Memo or Lighthouse instructions`,
    );
  }
  const [limit, price, transfer] = instructions as [
    (typeof instructions)[number],
    (typeof instructions)[number],
    (typeof instructions)[number],
  ];
  const shape = shapeOf(transfer, ctx.programId);
  const caps = shape ?? (PAYMENT_SHAPES[0] as PaymentShape);
  if (
    limit.program !== COMPUTE_BUDGET_PROGRAM ||
    limit.data[0] !== SET_COMPUTE_UNIT_LIMIT ||
    limit.data.length !== 5
  ) {
    throw new X402Refusal(X402_REASONS.computeLimit, "instruction 0 must be SetComputeUnitLimit");
  }
  const units = getU32Decoder().decode(limit.data, 1);
  if (units > caps.maxComputeUnits) {
    throw new X402Refusal(
      X402_REASONS.computeLimitTooHigh,
      `instruction 0 asks for ${units} compute units; at most ${caps.maxComputeUnits}`,
    );
  }
  if (
    price.program !== COMPUTE_BUDGET_PROGRAM ||
    price.data[0] !== SET_COMPUTE_UNIT_PRICE ||
    price.data.length !== 9
  ) {
    throw new X402Refusal(X402_REASONS.computePrice, "instruction 1 must be SetComputeUnitPrice");
  }
  const microLamports = getU64Decoder().decode(price.data, 1);
  if (microLamports > caps.maxPriorityFeeMicroLamports) {
    throw new X402Refusal(
      X402_REASONS.computePriceTooHigh,
      `instruction 1 prices a compute unit at ${microLamports} micro-lamports; at most ${caps.maxPriorityFeeMicroLamports}`,
    );
  }
  if (shape === null) {
    const isToken = tokenTransferOf(transfer) !== null || transfer.program === ctx.programId;
    throw new X402Refusal(
      isToken ? X402_REASONS.noTransfer : X402_REASONS.programNotAllowed,
      isToken
        ? "instruction 2 must be a TransferChecked (a wallet's payment) or cpay's agent_transfer (an agent's)"
        : `instruction 2 runs ${transfer.program}; a payment's transfer is a Token TransferChecked or cpay's agent_transfer`,
    );
  }
  for (const [offset, ix] of instructions.slice(MIN_INSTRUCTIONS).entries()) {
    if (ix.program === MEMO_PROGRAM || ix.program === LIGHTHOUSE_PROGRAM) continue;
    throw new X402Refusal(
      UNKNOWN_AT[offset] ?? X402_REASONS.unknownSeventh,
      tokenTransferOf(ix) !== null
        ? `instruction ${ix.index} is a second transfer; a payment makes exactly one`
        : `instruction ${ix.index} runs ${ix.program}; after the transfer only Memo or Lighthouse instructions may follow`,
    );
  }
  if (memo !== undefined) checkMemo(tx, memo);
  return shape;
}

function checkFeePayerIsolated(tx: PaymentTransaction, feePayer: string): void {
  for (const ix of tx.instructions) {
    const transfer = tokenTransferOf(ix);
    if (transfer?.authority === feePayer || transfer?.source === feePayer) {
      throw new X402Refusal(
        X402_REASONS.feePayerTransferringFunds,
        `instruction ${ix.index} moves the fee payer's tokens; the fee payer only pays the fee`,
      );
    }
    if (ix.program === feePayer || ix.accounts.includes(feePayer)) {
      throw new X402Refusal(
        X402_REASONS.feePayerNotIsolated,
        `the fee payer ${feePayer} appears in instruction ${ix.index} (${ix.program}); it may appear in no instruction`,
      );
    }
  }
}

/** Exactly one Memo instruction, whose data is the requirement's `extra.memo` (UTF-8). */
function checkMemo(tx: PaymentTransaction, memo: string): void {
  const memos = tx.instructions.filter((ix) => ix.program === MEMO_PROGRAM);
  if (memos.length !== 1) {
    throw new X402Refusal(
      X402_REASONS.memoCount,
      `the requirement asks for the memo "${memo}": the transaction must carry exactly one Memo instruction, it has ${memos.length}`,
    );
  }
  if (new TextDecoder().decode(memos[0]?.data) !== memo) {
    throw new X402Refusal(
      X402_REASONS.memoMismatch,
      `the Memo instruction's text is not the requirement's "${memo}"`,
    );
  }
}
