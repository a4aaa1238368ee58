/**
 * A payment's arguments as the agent's client takes them: the amount in base units (positive, at
 * most USDG's 6 decimals) and the recipient's wallet, resolved from its handle on-chain as the
 * program resolves it. Shared by `pay` and `preview_payment`, so both judge the same payment.
 */
import { parseDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import { type ResolvedRecipient, resolveRecipient } from "@cpay/sdk/agent-client";
import type { ChainPort } from "@cpay/sdk/chain";
import { LocalRefusal } from "./local-refusals";

export interface PaymentInput extends ResolvedRecipient {
  /** Base units. */
  readonly amount: bigint;
  readonly confidential: boolean;
}

export async function paymentInputOf(
  chain: ChainPort,
  args: { readonly to: string; readonly amount: string; readonly confidential: boolean },
): Promise<PaymentInput> {
  const amount = parseDecimalAmount(args.amount, USDG_DECIMALS);
  if (amount === 0n) {
    throw new LocalRefusal({
      code: "invalid_request",
      message: "amount must be greater than zero",
      param: "amount",
    });
  }
  return { ...(await resolveRecipient(chain, args.to)), amount, confidential: args.confidential };
}
