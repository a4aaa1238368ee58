/**
 * The USDG a suite reads on chain to check what moved, through a chain port (so the same suite holds
 * in process and over RPC): the public amount of an owner's token account, and its confidential
 * balances decrypted with the holder's own keys — never through the API.
 */
import type { ChainPort } from "@cpay/sdk/chain";
import {
  availableBalance,
  type ConfidentialKeyset,
  decryptPendingBalance,
  findTokenAccount,
} from "@cpay/sdk/confidential";
import { getTokenDecoder } from "@solana-program/token-2022";
import { confidentialStateOn } from "./confidential-state";

/** The public USDG of the account at `owner` (wallet or agent PDA), 0 without a token account. */
export async function publicUsdgOn(chain: ChainPort, owner: string): Promise<bigint> {
  const account = await chain.getAccount(await findTokenAccount(owner, chain.usdgMint));
  return account === null ? 0n : getTokenDecoder().decode(account.data).amount;
}

/** Decrypted confidential balances of the USDG account at `owner`: available and pending credits. */
export async function confidentialUsdgOn(
  chain: ChainPort,
  owner: string,
  keys: ConfidentialKeyset,
): Promise<{ readonly available: bigint; readonly pending: bigint }> {
  const state = await confidentialStateOn(chain, await findTokenAccount(owner, chain.usdgMint));
  if (state === null) throw new Error(`${owner} has no confidential USDG account`);
  return { available: availableBalance(state, keys), pending: decryptPendingBalance(state, keys) };
}

/** All the confidential USDG at `owner`, available and pending together. */
export async function confidentialUsdgTotalOn(
  chain: ChainPort,
  owner: string,
  keys: ConfidentialKeyset,
): Promise<bigint> {
  const { available, pending } = await confidentialUsdgOn(chain, owner, keys);
  return available + pending;
}
