/**
 * Where an account's USDG lives: the Token-2022 associated token account of its `public_key` —
 * the wallet for a personal or business account, the agent's PDA for an agent (the program owns
 * the agent's token accounts through that PDA). Both balance kinds (confidential and public) are
 * in that one token account.
 */

import type { AccountRow } from "@cpay/ledger";
import { findTokenAccount } from "@cpay/sdk/confidential";
import type { Address } from "@solana/kit";
import { getTokenDecoder, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import type { ServiceContext } from "../core/service-context";

// Made once: building the decoder (every extension's codec) costs more than a decode.
const TOKEN_DECODER = getTokenDecoder();

/** The address of the account's USDG token account (it may not exist yet). */
export function usdgTokenAccountOf(service: ServiceContext, account: AccountRow): Promise<Address> {
  return findTokenAccount(account.publicKey, service.chain.usdgMint);
}

/**
 * The public (non-confidential) token amount held in `tokenAccount`, 0 when the account does not
 * exist. Public amounts are visible to anyone on-chain, so reading one reveals nothing.
 */
export async function publicTokenAmount(service: ServiceContext, tokenAccount: string): Promise<bigint> {
  const record = await service.chain.getAccount(tokenAccount);
  if (record === null) return 0n;
  if (record.owner !== TOKEN_2022_PROGRAM_ADDRESS) {
    throw new Error(`${tokenAccount} is not a Token-2022 account`);
  }
  return TOKEN_DECODER.decode(record.data).amount;
}
