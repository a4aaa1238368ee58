/**
 * Start-up check: the USDG mint is a Token-2022 mint with the ConfidentialTransferMint extension;
 * without it no confidential account can be configured and every confidential transfer would fail.
 */

import { ConfigError } from "@cpay/ledger/config";
import type { ChainPort } from "@cpay/sdk/chain";
import { confidentialMintOf } from "@cpay/sdk/confidential";

export async function checkConfidentialMint(
  chain: ChainPort,
  check: { readonly where: string; readonly mint: string },
): Promise<void> {
  try {
    confidentialMintOf(check.mint, await chain.getAccount(check.mint));
  } catch (error) {
    throw new ConfigError(
      `${check.where}: the USDG mint is unusable: ${(error as Error).message}; set the environment's USDG_MINT to a Token-2022 mint with confidential transfers`,
    );
  }
}
