/**
 * Whether an account's USDG token account can take part in confidential transfers now, read from
 * the chain (the mint and the account say it, not a setting of this service): `/v1/accounts/me`
 * shows it, and a confidential send from an account the issuer has not approved yet is refused
 * before anything is proved, written or paid.
 */
import type { AccountRow } from "@cpay/ledger";
import type { TConfidentialStatus } from "@cpay/sdk/api";
import { type ConfidentialReadiness, confidentialReadiness } from "@cpay/sdk/confidential";
import { ApiError } from "../core/api-error";
import { isChainUnavailable } from "../core/chain-unavailable";
import type { ServiceContext } from "../core/service-context";

const STATUS_OF: Record<ConfidentialReadiness, TConfidentialStatus> = {
  ready: "ready",
  not_approved: "awaiting_approval",
  no_token_account: "not_configured",
  not_configured: "not_configured",
  frozen: "frozen",
  confidential_credits_disabled: "confidential_credits_disabled",
  pending_credits_full: "pending_credits_full",
};

/** The account's status on `mint`, or undefined when the cluster could not be read (the field is left out). */
export async function confidentialStatusOf(
  service: ServiceContext,
  account: AccountRow,
  mint: string,
): Promise<TConfidentialStatus | undefined> {
  try {
    return STATUS_OF[await confidentialReadiness(service.chain, account.publicKey, mint)];
  } catch (error) {
    // Reading the account itself needs no cluster: an outage leaves this one field out.
    if (isChainUnavailable(error)) return undefined;
    throw error;
  }
}

/** `409 confidential_account_not_approved` when the issuer has not approved the sender's account yet. */
export async function requireApprovedSender(
  service: ServiceContext,
  account: AccountRow,
  asset: { readonly mint: string; readonly symbol: string },
): Promise<void> {
  if ((await confidentialReadiness(service.chain, account.publicKey, asset.mint)) !== "not_approved") return;
  throw new ApiError(
    "confidential_account_not_approved",
    `this account's confidential ${asset.symbol} account awaits the issuer's approval; nothing was sent. Send with confidential: false, or retry once GET /v1/accounts/me shows confidential_status: ready`,
  );
}
