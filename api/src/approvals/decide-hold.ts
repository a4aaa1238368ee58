/**
 * Approving and rejecting a hold (spec 4.7), one use case with two outcomes.
 * Each decision of one transaction runs alone in this process (the expiry job takes the same
 * turn), and the chain keeps it single across processes: the first decision closes the hold, so a
 * second one fails on-chain and is answered `409 transaction_not_pending`.
 *
 * Approve: public hold -> `pending_approve` (the owner's wallet signs, the fee reserve pays);
 * confidential hold -> `confidential_pending_approve` with its pinned proof contexts. The transfer
 * executes now, counted toward today's limits. Reject: `pending_reject` (contexts closed for a
 * confidential hold), nothing moves. Then the decision is recorded (record-decision.ts).
 */

import type { AccountRow } from "@cpay/ledger";
import { recordDecision } from "@cpay/ledger";
import {
  buildPendingApproveInstruction,
  buildPendingRejectInstruction,
  getPendingTransactionDecoder,
} from "@cpay/sdk";
import { approveConfidentialHold, type Hold, readHold, rejectHold } from "@cpay/sdk/agent-confidential";
import { type Address, address, type KeyPairSigner } from "@solana/kit";
import { requireKyc } from "../accounts/require-kyc";
import { runExclusively } from "../agents/run-exclusively";
import { sendInstructions } from "../chain/send-instructions";
import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";
import { reservePayer } from "../reserve/reserve-scope";
import { withAccountTurn } from "../transfers/in-flight";
import { walletSignerOf } from "../vault/account-secrets";
import { decisionFailure, isChainError } from "./decision-failure";
import { type LoadedHold, loadDecidableHold, loadHold, transactionNotPending } from "./load-hold";

export type HoldDecision = "approve" | "reject";

/** The turn key shared by decisions and the expiry job for one hold. */
export function decisionTurn(transactionId: string): string {
  return `hold:${transactionId}`;
}

/**
 * Approves or rejects `transactionId` for `owner` and returns the transaction as it is now.
 * Refusals: 404 transaction_not_found, 409 transaction_not_pending / transaction_expired,
 * 422 policy_violation, 402 insufficient_balance and 403 kyc_required (approve), 503
 * chain_unavailable. Approving moves money, so it needs the owner's identity verification like a
 * transfer; rejecting moves nothing and stays open to an owner whose verification lapsed.
 */
export async function decideHold(
  service: ServiceContext,
  owner: AccountRow,
  transactionId: string,
  decision: HoldDecision,
): Promise<LoadedHold> {
  if (decision === "approve") await requireKyc(service, owner);
  return runExclusively(service, decisionTurn(transactionId), async () => {
    const held = await loadDecidableHold(service, owner, transactionId);
    const pending = address(held.row.holdAddress);
    const hold = await readHold(service.chain, pending);
    // Open in the database, closed on-chain: another process decided it and has not written yet.
    if (hold === null) throw transactionNotPending("closed on-chain by another decision");
    const ownerWallet = await walletSignerOf(service, owner.id);
    let signature: string;
    try {
      // The agent's own transfers and this one take turns, so balance checks never interleave.
      signature = await withAccountTurn(service, held.agent.id, () =>
        sendDecision(service, decision, ownerWallet, pending, hold),
      );
    } catch (error) {
      if (!isChainError(error)) throw error;
      const answer = decisionFailure(error, (await readHold(service.chain, pending)) !== null);
      if (answer.code === "chain_unavailable") {
        service.logger.warn(
          { transaction_id: transactionId, decision, err: describeUnexpected(error) },
          "a hold decision did not land",
        );
      }
      throw answer;
    }
    const status = decision === "approve" ? "approved" : "rejected";
    const recorded = await recordDecision(service, held.row, held.agent, { status, signature });
    if (recorded !== null) return { row: recorded, agent: held.agent };
    // Another observer recorded this very outcome first (the chain allows only one).
    const now = await loadHold(service, owner, transactionId);
    if (now.row.status !== status) throw transactionNotPending(now.row.status);
    return now;
  });
}

/**
 * How each decision is sent: a confidential hold through the SDK's flow (it also closes the hold's
 * proof contexts), a public one as the one program instruction.
 */
const DECISION_SENDERS = {
  approve: { confidential: approveConfidentialHold, public: buildPendingApproveInstruction },
  reject: { confidential: rejectHold, public: buildPendingRejectInstruction },
} as const;

async function sendDecision(
  service: ServiceContext,
  decision: HoldDecision,
  owner: KeyPairSigner,
  pending: Address,
  hold: Hold,
): Promise<string> {
  const send = DECISION_SENDERS[decision];
  if (hold.confidential) {
    return (await send.confidential(service.chain, { owner, pending, payer: reservePayer(service) }))
      .signature;
  }
  return sendInstructions(service, [
    await send.public({
      owner,
      pending,
      hold: await decodePublicHold(service, pending),
      programAddress: address(service.chain.programId),
    }),
  ]);
}

/** The generated client's view of a public hold (what its instruction builders take). */
async function decodePublicHold(service: ServiceContext, pending: Address) {
  const account = await service.chain.getAccount(pending);
  if (account === null) throw new Error(`the hold ${pending} disappeared`);
  return getPendingTransactionDecoder().decode(account.data);
}
