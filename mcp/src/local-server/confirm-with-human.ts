/**
 * The local confirmation: above `CPAY_MCP_CONFIRM_ABOVE`, the human is asked through MCP
 * elicitation (a form with one yes/no field) before anything is signed. Only an explicit yes pays:
 * a no, a dismissed form, a client that cannot ask, or no answer within CONFIRMATION_TIMEOUT_MS all
 * refuse the payment, and nothing moves; a client that declared no form elicitation is told so
 * before anything is asked. This is on top of the on-chain human-approval threshold,
 * never instead of it. The form shows the amount: it is the agent's own process asking its human.
 */
import { formatDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolExtra } from "../tools/serve-tool";
import { LocalRefusal } from "./local-refusals";
import { CONFIRM_ABOVE_SETTING } from "./settings";

/** How long a human has to answer. */
export const CONFIRMATION_TIMEOUT_MS = 5 * 60_000;

export interface PaymentToConfirm {
  readonly to: string;
  /** Base units. */
  readonly amount: bigint;
  readonly asset: string;
  readonly confidential: boolean;
}

/** Resolves when the human said yes; throws a `LocalRefusal` otherwise. */
export async function confirmWithHuman(
  server: McpServer,
  payment: PaymentToConfirm,
  extra: ToolExtra,
): Promise<void> {
  if (server.server.getClientCapabilities()?.elicitation?.form === undefined) {
    throw new LocalRefusal({
      code: "confirmation_unavailable",
      message: `this payment is above ${CONFIRM_ABOVE_SETTING}, the amount above which the human confirms each payment first, and this MCP client cannot ask them (it offers no form elicitation); nothing was paid`,
    });
  }
  const amount = formatDecimalAmount(payment.amount, USDG_DECIMALS);
  const kind = payment.confidential ? "confidential" : "public";
  let answer: Awaited<ReturnType<McpServer["server"]["elicitInput"]>>;
  try {
    answer = await server.server.elicitInput(
      {
        mode: "form",
        message: `The agent asks to pay ${amount} ${payment.asset} to ${payment.to} (${kind}). Pay it?`,
        requestedSchema: {
          type: "object",
          properties: {
            approve: {
              type: "boolean",
              title: "Pay it",
              description: "Yes to pay; no (or closing this) pays nothing",
            },
          },
          required: ["approve"],
        },
      },
      { signal: extra.signal, timeout: CONFIRMATION_TIMEOUT_MS },
    );
  } catch {
    throw new LocalRefusal({
      code: "confirmation_unavailable",
      message:
        "this payment needs the human's confirmation, which could not be asked or was not answered; nothing was paid",
    });
  }
  if (answer.action !== "accept" || answer.content?.approve !== true) {
    throw new LocalRefusal({
      code: "confirmation_declined",
      message: "the human did not confirm this payment; nothing was paid",
    });
  }
}
