/**
 * What makes a payment one this facilitator settles for the calling account (the merchant, whose
 * API key the resource server's facilitator client sends), checked before the verifier runs: it
 * pays the merchant itself (`payTo` is the account's own address: a key settles payments to its
 * own account only, and the fee is charged to that account's reserve budget), in an asset the
 * service keeps accounts of (USDG). And the verifier's context: the environment's cluster, its fee
 * reserve, the networks it settles on (x402-networks.ts) and its settlement records.
 */
import type { AccountRow } from "@cpay/ledger";
import type { ServiceContext } from "../core/service-context";
import { settlementOf } from "./settlement-claims";
import type { VerifyContext } from "./verify-payment";
import type { TX402Requirements } from "./x402-contracts";
import { x402NetworksOf } from "./x402-networks";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

/** Throws X402Refusal unless `requirements` pay `merchant` in an asset of the service. */
export function checkMerchantPayment(
  service: ServiceContext,
  merchant: AccountRow,
  requirements: TX402Requirements,
): void {
  if (requirements.payTo !== merchant.publicKey) {
    throw new X402Refusal(
      X402_REASONS.payToNotAccount,
      `payTo is ${requirements.payTo}; this key's account is paid at ${merchant.publicKey}, and a key settles payments to its own account only`,
    );
  }
  const mints = Object.values(service.assets).map((asset) => asset.mint as string);
  if (!mints.includes(requirements.asset)) {
    throw new X402Refusal(
      X402_REASONS.unsupportedAsset,
      `asset ${requirements.asset} is not one this service keeps accounts of (${mints.join(", ")})`,
    );
  }
}

/** The verifier's view of this environment; a payment settled before is `duplicate_settlement`. */
export function verifyContextOf(service: ServiceContext): VerifyContext {
  return {
    chain: service.chain,
    feePayer: service.feePayer.address,
    networks: x402NetworksOf(service),
    refuseSettled: async (transaction) => {
      const settled = await settlementOf(service, transaction.messageHash);
      if (settled !== undefined) throw duplicateOf(settled.signature);
    },
  };
}

/** The refusal of a payment settled (or being settled) before. */
export function duplicateOf(signature: string | null, payer = ""): X402Refusal {
  return new X402Refusal(
    X402_REASONS.duplicateSettlement,
    `this payment was settled before${signature === null ? "" : ` (transaction ${signature})`}; a payment serves one request`,
    payer,
  );
}
