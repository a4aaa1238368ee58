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

/** An answer of the agent's USDG figures, each a decimal string beside `asset`, and its sentence. */
function usdgFigures<Name extends string>(
  figures: Record<Name, bigint>,
  sentence: (figure: Record<Name, string>) => string,
): CallToolResult {
  const decimals = Object.fromEntries(
    Object.entries<bigint>(figures).map(([name, units]) => [name, formatDecimalAmount(units, USDG_DECIMALS)]),
  ) as Record<Name, string>;
  return toolAnswer(sentence(decimals), { asset: "USDG", ...decimals });
}

export function localRemainingBudget(agent: ConnectedAgent) {
  return async (): Promise<CallToolResult> => {
    const [remaining, policy] = await Promise.all([agent.client.remainingToday(), agent.client.policy()]);
    return usdgFigures(
      {
        daily_remaining: remaining.daily,
        largest_payment_now: remaining.perTransaction,
        approval_threshold: policy.hitlThreshold,
      },
      (figure) =>
        `Today (UTC) the agent may still spend ${figure.daily_remaining} USDG, at most ${figure.largest_payment_now} USDG in one payment; payments above ${figure.approval_threshold} USDG are held for a human's approval.`,
    );
  };
}

export function localBalance(agent: ConnectedAgent) {
  return async (): Promise<CallToolResult> => {
    const balance = await agent.client.balance();
    return usdgFigures(
      {
        public: balance.public,
        confidential_available: balance.confidentialAvailable,
        confidential_pending: balance.confidentialPending,
      },
      (figure) =>
        `Balance: ${figure.public} USDG public, ${figure.confidential_available} USDG confidential available, ${figure.confidential_pending} USDG confidential pending.`,
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
