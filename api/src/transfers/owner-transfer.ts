/**
 * A personal or business account's transfer: the SDK's wallet paths, with the fee reserve paying
 * every fee and rent (the caller never needs SOL) and the program's transfer record in the
 * transaction that moves the funds (`record`): the memo is encrypted to sender and recipient, and
 * the Receipt `["receipt", wallet, transfer_id]` makes a resubmission of the same id fail as a whole —
 * which is also how crash recovery finds out whether the transfer landed (recover-submissions.ts).
 * A public transfer opens the recipient's account only as the plan says (account-opening.ts), and
 * then the wallet pays the plan's account-opening fee to the service's fee account in the same
 * transaction.
 */
import { transferConfidential, transferPublic } from "@cpay/sdk/confidential";
import type { ServiceContext } from "../core/service-context";
import { feeAccountOf } from "../reserve/fee-account";
import { reservePayer } from "../reserve/reserve-scope";
import type { Sender } from "./sender";
import type { Submission, TransferPlan } from "./transfer-plan";

/** Submits the plan from the owner's wallet; throws what the SDK threw. */
export async function submitOwnerTransfer(
  service: ServiceContext,
  sender: Extract<Sender, { kind: "owner" }>,
  plan: TransferPlan,
): Promise<Submission> {
  const record = { transferId: plan.transferId, ...(plan.memo === null ? {} : { memo: plan.memo }) };
  const common = {
    owner: sender.wallet,
    mint: plan.asset.mint,
    recipient: plan.recipient.wallet,
    amount: plan.amount,
    payer: reservePayer(service),
    record,
  };
  if (plan.confidential) {
    const { signatures } = await transferConfidential(service.chain, { ...common, keys: sender.keys });
    return { outcome: "executed", signature: signatures[signatures.length - 1] as string, signatures };
  }
  const { opening } = plan;
  const { signature } = await transferPublic(service.chain, {
    ...common,
    keys: sender.keys,
    openRecipientAccount: opening.opens,
    ...(opening.fee > 0n ? { fee: { amount: opening.fee, destination: await feeAccountOf(service) } } : {}),
  });
  return { outcome: "executed", signature, signatures: [signature] };
}
