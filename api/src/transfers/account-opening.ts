/**
 * Whether a transfer opens the recipient's token account, and what the sender pays for it.
 *
 * The fee reserve pays the rent of a recipient's associated token account it opens (the caller never
 * needs SOL), and whoever closes a token account takes its rent. For the service's own accounts
 * that is the service (a personal or business wallet is in its vault; an agent's PDA only the
 * program signs for, and it closes no token account), so opening theirs costs nothing in the end.
 * An owner outside the service could close the account as soon as it is opened and keep the rent:
 * dust to fresh addresses would turn the reserve's SOL into the sender's. So:
 * - to an owner the service does not custody whose account does not exist, the transfer opens it
 *   and the SENDER pays `ACCOUNT_OPENING_FEE_USDG` in the transfer's asset, moved to the service's
 *   fee account (reserve/fee-account.ts) in the same transaction: both land or neither;
 * - to such an owner whose account exists, the transfer does not open it: no CreateIdempotent, so
 *   if the account is closed before the transaction lands the transfer fails (`503`, nothing
 *   moved) instead of the reserve reopening it for free;
 * - to the service's own accounts, the account is opened when missing (it never is once set up)
 *   and nothing is charged;
 * - a confidential transfer opens nothing: its recipient's account must already be configured for
 *   confidential credits (create-transfer.ts refuses it with `422 recipient_not_confidential_ready`).
 * An account that appears between this read and the landing makes the opening a no-op, and the
 * fee was still paid: the answer states the fee the transaction charged.
 */
import { formatDecimalAmount } from "@cpay/sdk";
import type { TTransferFees } from "@cpay/sdk/api";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { isServiceWallet } from "../accounts/service-wallet";
import type { ServiceContext } from "../core/service-context";
import type { ResolvedAsset } from "./resolve-asset";
import type { Recipient } from "./resolve-recipient";

export interface AccountOpening {
  /** The transaction opens the recipient's associated token account (the reserve paying its rent). */
  readonly opens: boolean;
  /** What the sender pays for it, in base units of the transfer's asset; 0n when nothing. */
  readonly fee: bigint;
}

/** What a transfer that opens nothing is charged: nothing. */
export const NO_OPENING: AccountOpening = { opens: false, fee: 0n };

/** Decides the opening and its fee for a transfer to `recipient` (see the module doc). */
export async function accountOpeningFor(
  service: ServiceContext,
  input: { readonly recipient: Recipient; readonly asset: ResolvedAsset; readonly confidential: boolean },
): Promise<AccountOpening> {
  if (input.confidential) return NO_OPENING;
  const { recipient } = input;
  if (recipient.account !== null || (await isServiceWallet(service, recipient.wallet))) {
    return { opens: true, fee: 0n };
  }
  const destination = await findTokenAccount(recipient.wallet, input.asset.mint);
  if ((await service.chain.getAccount(destination)) !== null) return NO_OPENING;
  return { opens: true, fee: accountOpeningFeeOf(service, input.asset) };
}

/** The fees of a transfer as its answer states them (`fees`). */
export function feesOf(opening: AccountOpening, asset: ResolvedAsset): TTransferFees {
  return { account_opening: formatDecimalAmount(opening.fee, asset.decimals) };
}

/** The configured fee in base units of `asset` (USDG, the one asset the service moves). */
function accountOpeningFeeOf(service: ServiceContext, asset: ResolvedAsset): bigint {
  if (asset.mint !== service.chain.usdgMint) {
    // A second asset needs its own fee setting: charging USDG units of another mint would be wrong.
    throw new Error(`no account-opening fee is configured for ${asset.symbol}`);
  }
  return service.config.accountOpeningFeeUnits;
}
