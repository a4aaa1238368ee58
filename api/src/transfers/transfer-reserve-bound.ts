/**
 * What the fee reserve reserves for a transfer before its row is written (reserve/reserve-scope.ts
 * `prepayReserve`), so that an exhausted budget refuses it with nothing changed. A public transfer
 * is one transaction whose deposits are known: the recipient's token account (when the plan opens
 * it, account-opening.ts; its owner may close it and keep the rent, so it may be lost), and the rent
 * the reserve advances and gets back (reserve/advances.ts): the Receipt and, for an agent, a hold.
 * Its signatures are the reserve's and the sender's, and for an agent whose transfer charges a fee
 * its owner's, who pays it. A confidential transfer's proof contexts are reserved by the signer as
 * it signs them (all before the first is sent), on top of this.
 */

import { getPendingTransactionSize, getReceiptSize } from "@cpay/sdk";
import { LAMPORTS_PER_SIGNATURE } from "@cpay/sdk/chain";
import type { ServiceContext } from "../core/service-context";
import type { ReserveCharge } from "../reserve/reserve-charges";
import { TOKEN_ACCOUNT_SIZE } from "../reserve/spend-bound";
import type { TransferPlan } from "./transfer-plan";

/** The fee payer's and the sender's signature (an agent's signer, or the owner's wallet). */
const PUBLIC_TRANSFER_SIGNATURES = 2n;

export async function transferReserveBound(
  service: ServiceContext,
  plan: TransferPlan,
  agentSender: boolean,
): Promise<ReserveCharge> {
  if (plan.confidential) return { loss: 0n, advance: 0n };
  const rent = (space: number) => service.chain.minimumBalanceForRentExemption(space);
  const [tokenAccount, receipt, hold] = await Promise.all([
    plan.opening.opens ? rent(TOKEN_ACCOUNT_SIZE) : 0n,
    rent(getReceiptSize()),
    agentSender ? rent(getPendingTransactionSize()) : 0n,
  ]);
  const signatures = PUBLIC_TRANSFER_SIGNATURES + (agentSender && plan.opening.fee > 0n ? 1n : 0n);
  return {
    loss: LAMPORTS_PER_SIGNATURE * signatures + tokenAccount,
    advance: receipt + hold,
  };
}
