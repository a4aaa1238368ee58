/**
 * The local `preview_payment`: what the program would decide for the payment now (the agent
 * client's `preview`: the policy, the agent and the clock on-chain, today's confidential spend
 * decrypted with the agent's keys), without signing. A refusal here is the preview's answer, not a
 * tool error: nothing was asked of the chain that could be refused.
 */
import { POLICY_REFUSALS } from "@cpay/sdk";
import type { ConnectedAgent } from "@cpay/sdk/agent-client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { previewPaymentTool } from "../tools/pay-tools";
import { refusalAdvice } from "../tools/refusal-advice";
import { toolAnswer } from "../tools/tool-results";
import { paymentInputOf } from "./payment-input";

type PreviewArgs = z.output<(typeof previewPaymentTool)["inputSchema"]>;

export function localPreviewPayment(agent: ConnectedAgent) {
  return async (args: PreviewArgs): Promise<CallToolResult> => {
    const decision = await agent.client.preview(await paymentInputOf(agent.chain, args));
    switch (decision.outcome) {
      case "executes":
        return toolAnswer("The program would execute this payment now (if the balance covers it).", {
          decision: "executes",
        });
      case "held":
        return toolAnswer(
          "The program would HOLD this payment for a human's approval: it is above the approval threshold. Paying it now creates a hold that the agent's owner must approve.",
          { decision: "held" },
        );
      default: {
        const refusal = POLICY_REFUSALS[decision.rule];
        return toolAnswer(
          `The program would REFUSE this payment now (rule: ${refusal.param}): ${refusal.message}. ${refusalAdvice("policy_violation", refusal.param)}`,
          {
            decision: "refused",
            rule: refusal.param,
            program_error: decision.rule,
            message: refusal.message,
          },
        );
      }
    }
  };
}
