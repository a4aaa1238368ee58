/**
 * The sentence a model reads about a transfer, the same from both servers: where it stands and what
 * to do next. Built from the `/v1` transfer fields only (status, recipient, kind, the hold); a
 * transfer's answer never carries its amount, so neither does this.
 */
import { refusalAdvice } from "./refusal-advice";

export interface TransferFacts {
  readonly transfer_id: string;
  readonly status: string;
  readonly to: string;
  readonly confidential: boolean;
  readonly approval: { readonly transaction_id: string; readonly expires_at: string } | null;
}

/** `replayed`: the answer of an earlier call with the same idempotency key. */
export function transferSummary(
  transfer: TransferFacts,
  options: { readonly replayed?: boolean } = {},
): string {
  const kind = transfer.confidential ? "confidential" : "public";
  const what = `${options.replayed === true ? "Already made with this idempotency_key: " : ""}the ${kind} transfer ${transfer.transfer_id} to ${transfer.to}`;
  if (transfer.approval !== null && transfer.status === "pending") {
    return `${what} is HELD for human approval: nothing has moved yet. The account's owner must approve transaction ${transfer.approval.transaction_id} before ${transfer.approval.expires_at}. Do not pay again; follow it with get_transfer (it becomes "confirmed" once approved, "failed" if rejected or expired).`;
  }
  switch (transfer.status) {
    case "confirmed":
      return `${what} is confirmed on-chain.`;
    case "failed":
      return `${what} failed: nothing moved. ${refusalAdvice("transfer_failed", undefined)}`;
    default:
      return `${what} is submitted (pending). Call get_transfer with its id to see it "confirmed", usually within seconds.`;
  }
}
