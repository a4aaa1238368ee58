/**
 * What the service checks of an environment's cluster before it serves anything, in order; each
 * refusal names the environment, what is wrong and what to do. The last check, that the database
 * belongs to this cluster (genesis), is made where the database opens (db/open-for-chain.ts).
 */
import type { ChainPort } from "@cpay/sdk/chain";
import { checkConfidentialMint } from "./confidential-mint";
import { checkProgramConfig } from "./program-config";
import { checkProgramDeployed } from "./program-deployed";
import { checkReserveFunded } from "./reserve-funded";

export { checkConfidentialMint, checkProgramConfig, checkProgramDeployed, checkReserveFunded };

export interface StartupExpectations {
  readonly where: string;
  readonly feeReserve: string;
  readonly reserveMinLamports: bigint;
  readonly allowedProgramSha256s: readonly string[];
  /** The build the program must equal (or be allowed besides); default `builtProgramPath()`. */
  readonly builtProgramPath?: string;
}

/** Program and its bytes, then the mint and the reserve (the config is checked once it exists). */
export async function checkClusterAtStart(chain: ChainPort, expected: StartupExpectations): Promise<void> {
  await checkProgramDeployed(chain, {
    where: expected.where,
    programId: chain.programId,
    allowedSha256s: expected.allowedProgramSha256s,
    ...(expected.builtProgramPath === undefined ? {} : { builtProgramPath: expected.builtProgramPath }),
  });
  await checkConfidentialMint(chain, { where: expected.where, mint: chain.usdgMint });
  await checkReserveFunded(chain, {
    where: expected.where,
    reserve: expected.feeReserve,
    minLamports: expected.reserveMinLamports,
  });
}
