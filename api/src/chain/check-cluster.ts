/**
 * What the service checks of a cluster before it serves anything: the agent-policy program is
 * deployed there (an executable account), the USDG mint is a Token-2022 mint, and the fee reserve
 * holds lamports. Each failure names what is missing and where, instead of a first request failing
 * in a way nobody can read.
 */
import type { ChainPort } from "@cpay/sdk/chain";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { ConfigError } from "../config";

export async function checkClusterAtStart(
  chain: ChainPort,
  expected: { readonly feeReserve: string; readonly rpcUrl: string },
): Promise<void> {
  const [program, mint, feeReserve] = await chain.getMultipleAccounts([
    chain.programId,
    chain.usdgMint,
    expected.feeReserve,
  ]);
  const where = `on the cluster at ${expected.rpcUrl}`;
  if (program === null || program === undefined || !program.executable) {
    throw new ConfigError(`the agent-policy program ${chain.programId} is not deployed ${where}`);
  }
  if (mint === null || mint === undefined || mint.owner !== TOKEN_2022_PROGRAM_ADDRESS) {
    throw new ConfigError(`the USDG mint ${chain.usdgMint} is not a Token-2022 mint ${where}`);
  }
  if (feeReserve === null || feeReserve === undefined || feeReserve.lamports === 0n) {
    throw new ConfigError(`the fee reserve ${expected.feeReserve} holds no lamports ${where}: fund it first`);
  }
}
