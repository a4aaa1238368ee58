/**
 * Start-up check: the program's config account exists and names this environment's registrar, the
 * only key the program lets register handles. Another registrar would make every account creation
 * fail on-chain after its row was written.
 */

import { ConfigError } from "@cpay/ledger/config";
import { findConfigPda, getConfigDecoder } from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import { address } from "@solana/kit";

export async function checkProgramConfig(
  chain: ChainPort,
  check: { readonly where: string; readonly programId: string; readonly registrar: string },
): Promise<void> {
  const [config] = await findConfigPda({ programAddress: address(check.programId) });
  const account = await chain.getAccount(config);
  if (account === null || account.owner !== check.programId) {
    throw new ConfigError(
      `${check.where}: the agent-policy program's config (${config}) is not initialised; initialise it with ` +
        `the registrar ${check.registrar} (npm run deploy does)`,
    );
  }
  let registrar: string;
  try {
    registrar = getConfigDecoder().decode(account.data).registrar;
  } catch {
    throw new ConfigError(`${check.where}: the account at ${config} is not the program's config`);
  }
  if (registrar !== check.registrar) {
    throw new ConfigError(
      `${check.where}: the program's config names the registrar ${registrar}, but the environment's REGISTRAR_SIGNER is ${check.registrar}`,
    );
  }
}
