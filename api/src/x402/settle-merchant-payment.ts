/**
 * `POST /settle` for the calling merchant, inside the request's reserve scope (the door opens it for
 * the merchant's account, so the fee counts to the merchant's reserve budget):
 *
 * 1. verify, as `/verify` does (verify-merchant-payment.ts);
 * 2. claim the payment's settlement record (settlement-claims.ts): a payment claimed before, by any
 *    process, is `duplicate_settlement` — of two requests presenting it at once, one goes on;
 * 3. the fee reserve co-signs as fee payer through `reservePayer`, which reserves the most the
 *    transaction can cost (its fees: the fee payer is in no instruction, so it pays nothing else)
 *    against the merchant's day before signing: no room is `reserve_budget_exhausted`, unsigned;
 * 4. send, and wait for it to land: refused by the cluster, or expired unseen, gives the claim back
 *    (nothing landed, nothing was charged);
 * 5. read what landed at `confirmed` (landed-payment.ts) and record it: a wallet's payment becomes the
 *    merchant's received transfer and webhook; a cpay agent's is the agent's own transfer, which the
 *    indexer records (sent for the agent, received for the merchant) (record-settled-payment.ts).
 *
 * A process that dies between sending and recording leaves the claim `sending`: the recovery
 * (recover-settlements.ts) settles it from the chain as step 5 would have.
 *
 * The answer is x402's `SettleResponse`; a refusal is `success: false` with the reason.
 */
import type { AccountRow } from "@cpay/ledger";
import { awaitLanding, SubmissionRejected } from "@cpay/sdk/chain";
import {
  assertIsTransactionPartialSigner,
  getSignatureFromTransaction,
  getTransactionDecoder,
} from "@solana/kit";
import type { ServiceContext } from "../core/service-context";
import { coSignAsFeePayer } from "../relay/co-sign";
import { reserveRefusalIn } from "../reserve/reserve-charges";
import { reservePayer } from "../reserve/reserve-scope";
import { type LandedPayment, landedPayment } from "./landed-payment";
import { duplicateOf } from "./merchant-payment";
import { recordSettledPayment } from "./record-settled-payment";
import {
  claimSettlement,
  finishSettlementIn,
  noteSettlementSignature,
  releaseSettlement,
} from "./settlement-claims";
import { verifyForMerchant } from "./verify-merchant-payment";
import type { VerifiedPayment } from "./verify-payment";
import type { TX402FacilitatorRequest, TX402Requirements, TX402SettleResponse } from "./x402-contracts";
import { X402_REASONS, X402Refusal } from "./x402-refusal";

/** The reason a settle answers when the merchant's reserve budget has no room for the fee. */
export const RESERVE_BUDGET_EXHAUSTED = "reserve_budget_exhausted";

export async function settleMerchantPayment(
  service: ServiceContext,
  merchant: AccountRow,
  request: TX402FacilitatorRequest,
): Promise<TX402SettleResponse> {
  const network = request.paymentRequirements.network;
  let signature = "";
  try {
    const verified = await verifyForMerchant(service, merchant, request);
    const { messageHash } = verified.transaction;
    const claimed = await claimSettlement(service, {
      messageHash,
      accountId: merchant.id,
      network,
      payer: verified.payer,
      shape: verified.shape.name,
    });
    if (!claimed) throw duplicateOf(null, verified.payer);
    const landed = await sendClaimed(service, verified, request.paymentRequirements, (sent) => {
      signature = sent;
    });
    const transferId = await recordSettledPayment(service, {
      merchant,
      messageHash,
      shape: verified.shape.name,
      transferData: verified.transaction.instructions[2]?.data ?? new Uint8Array(),
      landed,
    });
    service.logger.info(
      {
        account_id: merchant.id,
        transfer_id: transferId,
        tx_signature: signature,
        shape: verified.shape.name,
      },
      "x402 payment settled",
    );
    return {
      success: true,
      transaction: signature,
      network,
      payer: verified.payer,
      amount: landed.transfer.amount.toString(),
    };
  } catch (error) {
    const budget = reserveRefusalIn(error);
    if (budget !== null) {
      return {
        success: false,
        errorReason: RESERVE_BUDGET_EXHAUSTED,
        errorMessage: budget.message,
        transaction: "",
        network,
      };
    }
    if (!(error instanceof X402Refusal)) throw error;
    return {
      success: false,
      errorReason: error.reason,
      errorMessage: error.message,
      payer: error.payer,
      transaction: signature,
      network,
    };
  }
}

/**
 * Signs, sends and waits for the claimed payment; its landed facts. Gives the claim back when
 * nothing can have landed; ends it `failed` when it landed without paying.
 */
async function sendClaimed(
  service: ServiceContext,
  verified: VerifiedPayment,
  requirements: TX402Requirements,
  onSigned: (signature: string) => void,
): Promise<LandedPayment> {
  const { messageHash, wire, blockhash } = verified.transaction;
  let signed: Uint8Array;
  try {
    const payer = reservePayer(service);
    // The reserve signs transactions as they are (its metered signer and its key both do).
    assertIsTransactionPartialSigner(payer);
    signed = await coSignAsFeePayer(payer, wire);
  } catch (error) {
    await releaseSettlement(service, messageHash);
    throw error;
  }
  const signature = getSignatureFromTransaction(getTransactionDecoder().decode(signed));
  onSigned(signature);
  await noteSettlementSignature(service, messageHash, signature);
  try {
    await service.chain.sendTransaction(signed);
  } catch (error) {
    if (!(error instanceof SubmissionRejected)) throw error;
    await releaseSettlement(service, messageHash);
    throw new X402Refusal(
      X402_REASONS.transactionFailed,
      `the cluster refused the transaction: ${error.message}; nothing was paid`,
      verified.payer,
    );
  }
  const status = await awaitLanding(service.chain, signature, blockhash, { wire: signed });
  if (status === null) {
    await releaseSettlement(service, messageHash);
    throw new X402Refusal(
      X402_REASONS.transactionFailed,
      "the transaction did not land before its blockhash expired; nothing was paid",
      verified.payer,
    );
  }
  try {
    return await landedPayment(service, signature, requirements, verified.shape, service.feePayer.address);
  } catch (error) {
    if (error instanceof X402Refusal) {
      await service.db.transaction((tx) =>
        finishSettlementIn(service, tx, messageHash, { status: "failed", transferId: null }),
      );
    }
    throw error;
  }
}
