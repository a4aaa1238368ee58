/**
 * The local server's settings: exactly a self-custody agent's six (`agentSettingsFromEnv` of
 * `@cpay/sdk/agent-client`: the service URL, the agent's API key, signer and confidential secrets,
 * the RPC URLs), plus `CPAY_MCP_CONFIRM_ABOVE`: the amount (decimal USDG) above which a payment is
 * first confirmed by the human through MCP elicitation. Unset or empty: never asked.
 */
import { AmountError, parseDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import { type AgentSettings, agentSettingsFromEnv, MCP_CONFIRM_ABOVE_SETTING } from "@cpay/sdk/agent-client";

/** `CPAY_MCP_CONFIRM_ABOVE`, as the SDK names it for every page and host that writes it. */
export const CONFIRM_ABOVE_SETTING = MCP_CONFIRM_ABOVE_SETTING;

export interface LocalServerSettings {
  readonly agent: AgentSettings;
  /** Base units of USDG; null: payments are never confirmed locally. */
  readonly confirmAbove: bigint | null;
}

/** Reads the settings from `env`; throws naming a missing or malformed one. */
export function localServerSettingsFromEnv(env: NodeJS.ProcessEnv): LocalServerSettings {
  return { agent: agentSettingsFromEnv(env), confirmAbove: confirmAboveOf(env[CONFIRM_ABOVE_SETTING]) };
}

function confirmAboveOf(text: string | undefined): bigint | null {
  if (text === undefined || text.trim() === "") return null;
  try {
    return parseDecimalAmount(text.trim(), USDG_DECIMALS);
  } catch (error) {
    if (error instanceof AmountError) {
      throw new Error(`${CONFIRM_ABOVE_SETTING} ${error.message} (a USDG amount such as 50 or 12.50)`);
    }
    throw error;
  }
}
