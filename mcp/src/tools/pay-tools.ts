/**
 * Paying, and asking what paying would do. `pay` moves money, so it is destructive; it is
 * idempotent because its `idempotency_key` is required: the same call again pays nothing more and
 * answers the same transfer (the remote server through the `/v1` idempotency store, the local one
 * through the transfer id it derives from the key).
 */
import {
  amountField,
  assetField,
  confidentialField,
  idempotencyKeyField,
  memoField,
  recipientField,
} from "./fields";
import { defineTool, readOnlyTool } from "./tool-definition";

/** What names a payment, for paying it and for previewing it alike. */
const paymentFields = {
  to: recipientField,
  amount: amountField,
  asset: assetField,
  confidential: confidentialField,
};

export const payTool = defineTool(
  "pay",
  "Pay",
  { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  { ...paymentFields, memo: memoField, idempotency_key: idempotencyKeyField },
  [
    "Pay an @handle or a Solana address from this account (for an agent: from the agent's account, under the spend policy its owner set, which the chain enforces).",
    'Answers the transfer: its id ("tr_..."), its status and its on-chain signature. "pending" means submitted; call get_transfer until it is "confirmed".',
    "If the amount is above the agent's human-approval threshold, the payment is HELD: nothing moves until a human approves it; the answer names the held transaction and when it expires. Do not pay again: follow it with get_transfer.",
    "A refusal (a spend-policy rule, the balance, an unknown recipient...) is answered as an error naming the rule and what you can do; nothing is paid then.",
    "The server may ask the human to confirm first; if they decline or do not answer, nothing is paid.",
    "Always pass an idempotency_key, and reuse it when retrying the same payment.",
  ],
);

export const previewPaymentTool = readOnlyTool("preview_payment", "Preview a payment", paymentFields, [
  "What the on-chain spend policy would decide for this payment right now, without paying: it would execute, be held for a human's approval, or be refused (naming the rule: per-transaction limit, daily limit, recipients, assets, active hours...).",
  "Read from the policy and today's spend on-chain; the balance is not checked. Nothing is signed or sent.",
]);
