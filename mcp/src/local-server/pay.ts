/**
 * The local `pay`: the agent signs through its PDA with the SDK's agent client and submits through
 * the service's relay (which pays the fees); the program applies the spend policy. In order:
 * 1. the idempotency key names the transfer (idempotent-transfer-id.ts); if the service already has
 *    it, that transfer is the answer and nothing is signed (a payment that failed is answered as a
 *    refusal: a retry needs a new key). Calls with the same key in this process wait for each other.
 * 2. the amount and the recipient are read (payment-input.ts), and a memo the payment cannot
 *    carry is refused as `/v1` refuses it (`checkAgentMemo`: none on a confidential payment, none to
 *    a recipient without a confidential account);
 * 3. above `CPAY_MCP_CONFIRM_ABOVE`, the human confirms first (confirm-with-human.ts);
 * 4. the transfer is made: executed, or held above the on-chain approval threshold. A memo rides in
 *    its transfer record, encrypted here to the recipient: only the envelope leaves this process.
 */
import { type ConnectedAgent, checkAgentMemo } from "@cpay/sdk/agent-client";
import { ApiRequestError, type TTransferDetail, ZTransfer } from "@cpay/sdk/api";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { address } from "@solana/kit";
import type { z } from "zod";
import type { payTool } from "../tools/pay-tools";
import type { ToolExtra } from "../tools/serve-tool";
import { toolAnswer } from "../tools/tool-results";
import { transferSummary } from "../tools/transfer-summary";
import { confirmWithHuman } from "./confirm-with-human";
import { idempotentTransferId } from "./idempotent-transfer-id";
import { LocalRefusal } from "./local-refusals";
import { paymentInputOf } from "./payment-input";

type PayArgs = z.output<(typeof payTool)["inputSchema"]>;

export interface PayContext {
  readonly agent: ConnectedAgent;
  readonly server: McpServer;
  /** Base units; null: never confirmed locally. */
  readonly confirmAbove: bigint | null;
}

/** A `pay` handler for `context` (see the file doc). */
export function localPay(context: PayContext) {
  const inFlight = new Map<string, Promise<unknown>>();
  return async (args: PayArgs, extra: ToolExtra): Promise<CallToolResult> => {
    const earlier = inFlight.get(args.idempotency_key) ?? Promise.resolve();
    const run = earlier.catch(() => undefined).then(() => payOnce(context, args, extra));
    inFlight.set(args.idempotency_key, run);
    try {
      return await run;
    } finally {
      if (inFlight.get(args.idempotency_key) === run) inFlight.delete(args.idempotency_key);
    }
  };
}

async function payOnce(context: PayContext, args: PayArgs, extra: ToolExtra): Promise<CallToolResult> {
  const { agent } = context;
  // An empty memo is no memo, as on `/v1`.
  const memo = args.memo === "" ? undefined : args.memo;
  const transferId = idempotentTransferId(agent.account.public_key, args.idempotency_key);
  const made = await findTransfer(agent, transferId.id);
  if (made !== null) return replayed(made, args);
  const payment = await paymentInputOf(agent.chain, args);
  await checkAgentMemo(agent.chain, {
    memo,
    confidential: payment.confidential,
    recipient: payment.recipient,
    mint: address(agent.relayInfo.usdg_mint),
  });
  if (context.confirmAbove !== null && payment.amount > context.confirmAbove) {
    await confirmWithHuman(context.server, { ...payment, to: args.to, asset: args.asset }, extra);
  }
  const submission = await agent.client.transfer({
    ...payment,
    transferId: transferId.bytes,
    ...(memo === undefined ? {} : { memo }),
  });
  const answered = ZTransfer.safeParse(submission.transfer);
  // No answer when the final transaction's submission errored but it landed after all: the record says.
  const transfer = answered.success
    ? answered.data
    : await agent.api.call("getTransfer", { params: { transfer_id: transferId.id } });
  return toolAnswer(transferSummary(transfer), { transfer });
}

/** The earlier call's transfer, or a refusal when it was made for another payment or failed. */
function replayed(transfer: TTransferDetail, args: PayArgs): CallToolResult {
  if (transfer.confidential !== args.confidential) {
    throw new LocalRefusal({
      code: "idempotency_key_reused",
      message: `this idempotency_key was used for another payment (transfer ${transfer.transfer_id})`,
      param: "idempotency_key",
    });
  }
  if (transfer.status === "failed") {
    throw new LocalRefusal({
      code: "transfer_failed",
      message: `the payment made with this idempotency_key (transfer ${transfer.transfer_id}) failed and moved nothing`,
      param: "idempotency_key",
    });
  }
  return toolAnswer(transferSummary(transfer, { replayed: true }), { transfer, replayed: true });
}

/** The service's record of `transferId`, or null when it has none. */
async function findTransfer(agent: ConnectedAgent, transferId: string): Promise<TTransferDetail | null> {
  try {
    return await agent.api.call("getTransfer", { params: { transfer_id: transferId } });
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === "transfer_not_found") return null;
    throw error;
  }
}
