/**
 * Start-up check: the fee reserve holds at least `RESERVE_MIN_LAMPORTS`. It pays every fee and rent
 * deposit; starting with less would answer the first requests and then fail them for lack of SOL.
 */

import { ConfigError } from "@cpay/ledger/config";
import type { ChainPort } from "@cpay/sdk/chain";

export async function checkReserveFunded(
  chain: ChainPort,
  check: { readonly where: string; readonly reserve: string; readonly minLamports: bigint },
): Promise<void> {
  const account = await chain.getAccount(check.reserve);
  const lamports = account?.lamports ?? 0n;
  if (lamports < check.minLamports) {
    throw new ConfigError(
      `${check.where}: the fee reserve ${check.reserve} holds ${lamports} lamports, less than RESERVE_MIN_LAMPORTS ` +
        `(${check.minLamports}); fund it first`,
    );
  }
}
