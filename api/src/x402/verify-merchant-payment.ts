/**
 * `POST /verify` for the calling merchant: the payment is for this account (merchant-payment.ts),
 * passes the verifier (verify-payment.ts), and was never settled (its settlement record,
 * settlement-claims.ts: refused as `duplicate_settlement` whichever API process settled it). A
 * refusal is the answer `{ isValid: false, invalidReason, invalidMessage, payer }`.
 */
import type { AccountRow } from "@cpay/ledger";
import type { ServiceContext } from "../core/service-context";
import { checkMerchantPayment, verifyContextOf } from "./merchant-payment";
import { type VerifiedPayment, verifyPayment } from "./verify-payment";
import type { TX402FacilitatorRequest, TX402VerifyResponse } from "./x402-contracts";
import { X402Refusal } from "./x402-refusal";

export async function verifyMerchantPayment(
  service: ServiceContext,
  merchant: AccountRow,
  request: TX402FacilitatorRequest,
): Promise<TX402VerifyResponse> {
  try {
    const verified = await verifyForMerchant(service, merchant, request);
    return { isValid: true, payer: verified.payer };
  } catch (error) {
    if (!(error instanceof X402Refusal)) throw error;
    return { isValid: false, invalidReason: error.reason, invalidMessage: error.message, payer: error.payer };
  }
}

/** The verified payment, never settled before; throws X402Refusal. Settling starts here too. */
export async function verifyForMerchant(
  service: ServiceContext,
  merchant: AccountRow,
  request: TX402FacilitatorRequest,
): Promise<VerifiedPayment> {
  const { paymentPayload, paymentRequirements } = request;
  checkMerchantPayment(service, merchant, paymentRequirements);
  return verifyPayment(verifyContextOf(service), paymentPayload, paymentRequirements);
}
