/**
 * The local `fetch_paid`: fetch a URL; on an HTTP 402 whose x402 requirement the agent can pay,
 * pay it with `@cpay/sdk/x402` (the agent's PDA spends through `agent_transfer`, so the on-chain
 * policy binds it; the resource's facilitator submits and pays the fee) and fetch again with the
 * payment, once. In order, before anything is signed: the requirement is read, the program's
 * decision is taken (refused: a tool error naming the rule; above the approval threshold: a tool
 * error saying the owner must approve, since an x402 payment cannot wait for a hold), the payee's
 * account and the balance are checked, then, above `CPAY_MCP_CONFIRM_ABOVE`, the human confirms.
 * Nothing is retried: a paid request the server still refuses is reported with its reason.
 */

import { formatDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import type { ConnectedAgent } from "@cpay/sdk/agent-client";
import { idFromBytes } from "@cpay/sdk/api";
import {
  AgentX402Error,
  createAgentX402Client,
  createAgentX402Scheme,
  type SignedX402Payment,
} from "@cpay/sdk/x402";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { address } from "@solana/kit";
import { x402HTTPClient } from "@x402/core/client";
import type { z } from "zod";
import type { fetchPaidTool } from "../tools/fetch-paid-tool";
import type { ToolExtra } from "../tools/serve-tool";
import { toolAnswer } from "../tools/tool-results";
import { confirmWithHuman } from "./confirm-with-human";
import { LocalRefusal } from "./local-refusals";
import { type ResponseSummary, readCapped, responseSummary } from "./response-summary";

type FetchPaidArgs = z.output<(typeof fetchPaidTool)["inputSchema"]>;

/** How long one request may take (the paid retry included, each on its own). */
const REQUEST_TIMEOUT_MS = 60_000;

export interface FetchPaidContext {
  readonly agent: ConnectedAgent;
  readonly server: McpServer;
  /** Base units; null: never confirmed locally. */
  readonly confirmAbove: bigint | null;
}

/** A `fetch_paid` handler for `context` (see the file doc). */
export function localFetchPaid(context: FetchPaidContext) {
  return async (args: FetchPaidArgs, extra: ToolExtra): Promise<CallToolResult> => {
    const request = requestOf(args);
    const first = await send(request, {}, extra);
    if (first.status !== 402) return answered(await responseSummary(first), null);
    let signed: SignedX402Payment | null = null;
    const usdgMint = context.agent.relayInfo.usdg_mint;
    const scheme = createAgentX402Scheme({
      chain: context.agent.chain,
      agentSigner: context.agent.signer,
      agent: address(context.agent.account.public_key),
      beforeSigning: async (requirement) => {
        if (context.confirmAbove === null) return;
        if (requirement.mint === usdgMint && requirement.amount <= context.confirmAbove) return;
        await confirmWithHuman(
          context.server,
          {
            to: requirement.payTo,
            amount: requirement.amount,
            asset: requirement.mint === usdgMint ? "USDG" : requirement.mint,
            confidential: false,
          },
          extra,
        );
      },
      onSigned: (payment) => {
        signed = payment;
      },
    });
    const http = new x402HTTPClient(createAgentX402Client(scheme, context.agent.chain));
    const required = paymentRequiredOf(http, first, (await readCapped(first)).text);
    let payload: Awaited<ReturnType<typeof http.createPaymentPayload>>;
    try {
      payload = await http.createPaymentPayload(required);
    } catch (error) {
      throw refusalOf(error);
    }
    const paid = await send(request, http.encodePaymentSignatureHeader(payload), extra);
    const summary = await responseSummary(paid);
    const payment = signed as SignedX402Payment | null;
    if (payment === null) throw new Error("the x402 client made a payment the payer did not sign");
    const settlement = settlementOf(http, paid);
    const facts = {
      signature: settlement?.transaction ?? null,
      network: payload.accepted.network,
      pay_to: payment.requirement.payTo,
      asset: payment.requirement.mint === usdgMint ? "USDG" : payment.requirement.mint,
      amount: formatDecimalAmount(payment.requirement.amount, USDG_DECIMALS),
      transfer_id: idFromBytes("tr", payment.transferId),
    };
    if (paid.status === 402 || settlement?.success !== true) {
      throw new LocalRefusal({
        code: "payment_not_accepted",
        message: `the server did not accept the payment (HTTP ${paid.status}${settlement?.errorReason === undefined ? "" : `, ${settlement.errorReason}`}): it was not served. Check list_transfers for transfer ${facts.transfer_id} before paying again`,
      });
    }
    return answered(summary, facts);
  };
}

interface OutgoingRequest {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly body?: string;
  readonly headers: Record<string, string>;
}

function requestOf(args: FetchPaidArgs): OutgoingRequest {
  try {
    new URL(args.url);
  } catch {
    throw new LocalRefusal({ code: "invalid_request", message: "url is not a URL", param: "url" });
  }
  if (args.method === "GET" && args.body !== undefined) {
    throw new LocalRefusal({ code: "invalid_request", message: "a GET request has no body", param: "body" });
  }
  return {
    url: args.url,
    method: args.method,
    ...(args.body === undefined ? {} : { body: args.body }),
    headers: args.body === undefined ? {} : { "content-type": args.content_type ?? "application/json" },
  };
}

function send(
  request: OutgoingRequest,
  payment: Record<string, string>,
  extra: ToolExtra,
): Promise<Response> {
  return fetch(request.url, {
    method: request.method,
    headers: { ...request.headers, ...payment },
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.any([extra.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
  });
}

/** The settlement the server reported (PAYMENT-RESPONSE), or null when it sent none. */
function settlementOf(http: x402HTTPClient, response: Response) {
  try {
    return http.getPaymentSettleResponse((name) => response.headers.get(name));
  } catch {
    return null;
  }
}

/** The x402 requirement of a 402, or a refusal when it carries none this client can read. */
function paymentRequiredOf(http: x402HTTPClient, response: Response, body: string) {
  try {
    return http.getPaymentRequiredResponse((name) => response.headers.get(name), parsedJson(body));
  } catch {
    throw new LocalRefusal({
      code: "unpayable_requirement",
      message: "the server answered HTTP 402 without an x402 payment requirement; nothing was paid",
    });
  }
}

/**
 * `@x402/core`'s client refuses, before the payer is asked, a 402 none of whose options is ours
 * (another network or scheme): these are its words for that.
 */
const NO_PAYABLE_OPTION =
  /^(No network\/scheme registered|All payment requirements|No payment requirements|No client registered)/;

/** The payer's refusals as this server's (the `/v1` codes where there is one); anything else as is. */
function refusalOf(error: unknown): unknown {
  if (error instanceof Error && NO_PAYABLE_OPTION.test(error.message)) {
    return new LocalRefusal({
      code: "unpayable_requirement",
      message:
        "none of the server's payment options is an x402 \"exact\" payment on this agent's Solana cluster; nothing was paid",
    });
  }
  if (!(error instanceof AgentX402Error)) return error;
  return new LocalRefusal({
    code: error.code,
    message: error.message,
    ...(error.param === undefined ? {} : { param: error.param }),
  });
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function answered(summary: ResponseSummary, payment: Record<string, string | null> | null): CallToolResult {
  const paid =
    payment === null
      ? "Nothing was paid."
      : `Paid ${payment.amount} ${payment.asset} to ${payment.pay_to} (transfer ${payment.transfer_id}, signature ${payment.signature}).`;
  return toolAnswer(`HTTP ${summary.status}. ${paid}`, { ...summary, payment });
}
