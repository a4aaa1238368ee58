/**
 * The one transfer that pays a requirement: the rule read the same way before the payment is sent
 * (from its instruction, or from its simulation's CPIs) and after it landed (from the landed
 * transaction's own instructions and meta). Exactly one token transfer, not moved by the fee payer,
 * of the requirement's `asset`, into `payTo`'s associated token account of that asset, of the
 * amount (exactly, or at least it: the shape says which).
 */
import type { PaymentShape } from "./payment-shapes";
import { associatedTokenAccountOf, type TokenTransfer } from "./token-transfers";
import type { TX402Requirements } from "./x402-contracts";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

/** The paying transfer among `transfers` (every token transfer the payment makes), or throws X402Refusal. */
export async function payingTransfer(
  transfers: readonly TokenTransfer[],
  requirements: TX402Requirements,
  shape: PaymentShape,
  feePayer: string,
): Promise<TokenTransfer> {
  const [transfer, ...others] = transfers;
  if (transfer === undefined) {
    throw new X402Refusal(
      X402_REASONS.noTransferInSimulation,
      shape.name === "agent_transfer"
        ? "the agent's transfer moves no tokens: the program held it for its owner's approval (above its approval threshold), and a held transfer pays nothing"
        : "the transaction moves no tokens",
    );
  }
  if (others.length > 0) {
    throw new X402Refusal(
      X402_REASONS.multipleTransfers,
      `the transaction makes ${transfers.length} token transfers; a payment makes exactly one`,
      transfer.authority,
    );
  }
  const payer = transfer.authority;
  if (payer === feePayer) {
    throw new X402Refusal(
      X402_REASONS.feePayerTransferringFunds,
      "the transfer moves the fee payer's tokens; the fee payer only pays the fee",
      payer,
    );
  }
  if (transfer.mint !== requirements.asset) {
    throw new X402Refusal(
      X402_REASONS.mintMismatch,
      `the transfer moves ${transfer.mint ?? "a token without naming its mint (Transfer)"}; the requirement's asset is ${requirements.asset}`,
      payer,
    );
  }
  const destination = await associatedTokenAccountOf(
    requirements.payTo,
    requirements.asset,
    transfer.program,
  );
  if (transfer.destination !== destination) {
    throw new X402Refusal(
      X402_REASONS.recipientMismatch,
      `the transfer pays ${transfer.destination}; payTo ${requirements.payTo}'s token account of the asset is ${destination}`,
      payer,
    );
  }
  const asked = BigInt(requirements.amount);
  const paid = shape.amountRule === "exact" ? transfer.amount === asked : transfer.amount >= asked;
  if (!paid) {
    throw new X402Refusal(
      X402_REASONS.amountMismatch,
      `the transfer moves ${transfer.amount} base units; the requirement asks for ${shape.amountRule === "exact" ? "exactly" : "at least"} ${asked}`,
      payer,
    );
  }
  return transfer;
}
