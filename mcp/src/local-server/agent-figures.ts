/**
 * The agent's own figures, read from the chain and decrypted in this process with the agent's keys
 * (`remaining_budget`, `balance`) and its policy as the program holds it (`get_policy`). Amounts are
 * USDG decimal strings. They are shown to the agent's own host only: this server runs in the
 * agent's process, with its keys.
 */
import { decodeSpendPolicy, formatDecimalAmount, policyParamsFromAccount, USDG_DECIMALS } from "@cpay/sdk";
import type { ConnectedAgent } from "@cpay/sdk/agent-client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { address } from "@solana/kit";
import { toolAnswer } from "../tools/tool-results";

const usdg = (units: bigint) => formatDecimalAmount(units, USDG_DECIMALS);

export function localRemainingBudget(agent: ConnectedAgent) {
  return async (): Promise<CallToolResult> => {
    const [remaining, policy] = await Promise.all([agent.client.remainingToday(), agent.client.policy()]);
    const body = {
      asset: "USDG",
      daily_remaining: usdg(remaining.daily),
      largest_payment_now: usdg(remaining.perTransaction),
      approval_threshold: usdg(policy.hitlThreshold),
    };
    return toolAnswer(
      `Today (UTC) the agent may still spend ${body.daily_remaining} USDG, at most ${body.largest_payment_now} USDG in one payment; payments above ${body.approval_threshold} USDG are held for a human's approval.`,
      body,
    );
  };
}

export function localBalance(agent: ConnectedAgent) {
  return async (): Promise<CallToolResult> => {
    const balance = await agent.client.balance();
    const body = {
      asset: "USDG",
      public: usdg(balance.public),
      confidential_available: usdg(balance.confidentialAvailable),
      confidential_pending: usdg(balance.confidentialPending),
    };
    return toolAnswer(
      `Balance: ${body.public} USDG public, ${body.confidential_available} USDG confidential available, ${body.confidential_pending} USDG confidential pending.`,
      body,
    );
  };
}

export function localGetPolicy(agent: ConnectedAgent) {
  const assets = { USDG: { mint: address(agent.relayInfo.usdg_mint), decimals: USDG_DECIMALS } };
  return async (): Promise<CallToolResult> => {
    const policy = decodeSpendPolicy(policyParamsFromAccount(await agent.client.policy()), { assets });
    return toolAnswer("The agent's spend policy, as the chain enforces it.", { spend_policy: policy });
  };
}
