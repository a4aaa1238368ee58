/**
 * The service's fee account: the fee reserve's own associated USDG account, where the fees senders
 * pay the service (the account-opening fee, transfers/account-opening.ts) are moved, in the same
 * transaction as the transfer that charges them. Its owner is the reserve, so only the service can
 * move what is in it; nothing it holds is ever a customer's balance.
 */
import { findTokenAccount } from "@cpay/sdk/confidential";
import { type Address, address } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { sendInstructions } from "../chain/send-instructions";
import type { ServiceContext } from "../core/service-context";
import { withReserveSpend } from "./reserve-scope";

/** The fee account's address (the reserve's associated token account of the USDG mint). */
export function feeAccountOf(service: ServiceContext): Promise<Address> {
  return findTokenAccount(service.feePayer.address, service.chain.usdgMint);
}

/**
 * Opens the fee account once, at start, as the service's own spend (no customer's budget): a
 * transfer that charges a fee can then count on it, and its transaction need not open it.
 */
export async function ensureFeeAccount(service: ServiceContext): Promise<void> {
  const feeAccount = await feeAccountOf(service);
  if ((await service.chain.getAccount(feeAccount)) !== null) return;
  await withReserveSpend(service, null, async () => {
    await sendInstructions(service, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: service.feePayer,
        ata: feeAccount,
        owner: service.feePayer.address,
        mint: address(service.chain.usdgMint),
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      }),
    ]);
  });
}
