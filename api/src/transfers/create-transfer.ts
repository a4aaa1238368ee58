/**
 * `POST /v1/transfers` (spec 4.1, 3.1): one use case, in this order —
 * 1. refuse without touching anything: KYC (`403 kyc_required`), asset, amount, recipient, the
 *    recipient's confidential readiness (`422`), memo rules, for a confidential send the sender's
 *    own account approved by the mint's issuer (`409 confidential_account_not_approved`), an
 *    agent's spend policy (`422 policy_violation`, agent-policy-precheck.ts), and only then the balance (`402`) and what one
 *    confidential transfer carries — so no refusal an agent key can provoke depends on a balance
 *    it must not learn; a public transfer that opens an outside recipient's token account also
 *    needs the account-opening fee in the paying wallet's public balance (account-opening.ts);
 * 2. write the transfer `submitting` with its sealed details (seal-details.ts; and bind the
 *    Idempotency-Key to it) before anything is sent;
 * 3. submit: the owner's wallet path or the agent's program path (owner-transfer.ts,
 *    agent-transfer.ts), the fee reserve paying every fee and rent, the sender any account-opening
 *    fee in the same transaction; a transaction that could never land
 *    is signed again with a fresh blockhash under the same transfer id (resubmission.ts: safe by
 *    the receipt, or, for an agent's confidential transfer, by the finalized proof it never lands);
 * 4. record what happened (transfer-transitions.ts) and answer with the fees charged: `submitted` +
 *    `transfer.initiated` + key usage,
 *    `held` + the hold for its owner (its amount sealed to the owner), or `failed` with
 *    the 4xx/503 that explains it.
 * Transfers of one account run one at a time across every API process sharing the database
 * (in-flight.ts), so the balance check and the proofs see the balance the previous transfer left.
 *
 * A transfer the program or the SDK refused after the row was written is kept, `failed` with the
 * rule or reason in `failure_code` (an audit trail of what the key attempted), and fires no event:
 * it was never initiated, and the caller has its answer. The amount exists only in this request's
 * memory: never in a row, an event, a log line or an error message.
 */

import {
  type AccountRow,
  type ApiKeyRow,
  insertSubmittingTransferIn,
  markFailed,
  markHeld,
  markSubmitted,
  usageIncrementOf,
} from "@cpay/ledger";
import { bytesOfId, newId, nowIso } from "@cpay/ledger/ids";
import { MEMO_REFUSALS } from "@cpay/sdk/agent-client";
import type { TCreateTransferRequest, TTransfer } from "@cpay/sdk/api";
import { confidentialReadiness, findTokenAccount, readConfidentialState } from "@cpay/sdk/confidential";
import { requireApprovedSender } from "../accounts/confidential-status";
import { requireKyc } from "../accounts/require-kyc";
import { requireServiceCustody } from "../agents/self-custody";
import { ApiError } from "../core/api-error";
import { describeUnexpected } from "../core/describe-unexpected";
import type { IdempotencyClaim } from "../core/idempotency-claim";
import type { ServiceContext } from "../core/service-context";
import { prepayReserve } from "../reserve/reserve-scope";
import { accountOpeningFor, feesOf } from "./account-opening";
import { requireAgentPolicyAllows } from "./agent-policy-precheck";
import { submitAgentTransfer } from "./agent-transfer";
import { whileInFlight, withAccountTurn } from "./in-flight";
import { submitOwnerTransfer } from "./owner-transfer";
import { parseTransferAmount, requireConfidentialCarriable } from "./parse-amount";
import { type ResolvedAsset, resolveAsset } from "./resolve-asset";
import { type Recipient, resolveRecipient } from "./resolve-recipient";
import { withResubmission } from "./resubmission";
import { sealHeldAmount, sealTransfer } from "./seal-details";
import { loadSender, type Sender } from "./sender";
import { requireSufficientBalance } from "./sender-balance";
import { classifySubmissionFailure } from "./submission-failure";
import type { Submission, TransferPlan } from "./transfer-plan";
import { transferReserveBound } from "./transfer-reserve-bound";
import { heldTransferView, transferView } from "./transfer-view";

type Body = Required<Pick<TCreateTransferRequest, "to" | "amount" | "asset" | "confidential">> &
  Pick<TCreateTransferRequest, "memo">;

/** Who asks: the account and its calling key, null for a dashboard session. */
interface TransferCaller {
  readonly account: AccountRow;
  readonly apiKey: ApiKeyRow | null;
}

/** Creates a transfer for the calling key (see the module doc). */
export async function createTransfer(
  service: ServiceContext,
  input: {
    readonly caller: TransferCaller;
    readonly body: Body;
    readonly idempotency: IdempotencyClaim | null;
  },
): Promise<TTransfer> {
  const { account, apiKey } = input.caller;
  // A dashboard session's transfer counts toward no key's usage.
  const apiKeyId = apiKey?.id ?? null;
  const { body } = input;
  requireServiceCustody(account);
  await requireKyc(service, account);
  const asset = resolveAsset(service, body.asset);
  const amount = parseTransferAmount(body.amount, asset.decimals);
  const memo = body.memo === undefined || body.memo === "" ? null : body.memo;
  const recipient = await resolveRecipient(service, account, body.to);
  // Read beside the recipient's account (one round trip less); the recipient's refusal comes first.
  const senderApproved = body.confidential
    ? requireApprovedSender(service, account, asset)
    : Promise.resolve();
  senderApproved.catch(() => undefined);
  await checkRecipientAndMemo(service, {
    recipient,
    asset,
    confidential: body.confidential,
    memo,
    agentSender: account.type === "agent",
  });
  await senderApproved;

  return withAccountTurn(service, account.id, async () => {
    const sender = await loadSender(service, account);
    if (sender.kind === "agent") {
      await requireAgentPolicyAllows(service, {
        sender,
        recipient,
        asset,
        amount,
        confidential: body.confidential,
      });
    }
    // Read in the account's turn, next to the balance it is checked against.
    const opening = await accountOpeningFor(service, { recipient, asset, confidential: body.confidential });
    await requireSufficientBalance(service, {
      sender,
      asset,
      amount,
      confidential: body.confidential,
      fee: opening.fee,
    });
    requireConfidentialCarriable(amount, body.confidential);
    const id = newId("tr");
    const plan: TransferPlan = {
      id,
      transferId: bytesOfId(id),
      amount,
      asset,
      confidential: body.confidential,
      memo,
      recipient,
      opening,
    };
    // The reserve's share is reserved before the row is written: a refusal changes nothing.
    const bound = await transferReserveBound(service, plan, sender.kind === "agent");
    await prepayReserve(service, bound.loss, bound.advance);
    return whileInFlight(service, id, async () => {
      // Encrypted before the transaction opens: the ElGamal work need not hold the database.
      const usageIncrement = usageIncrementOf(sender.keys.elgamalPubkey, amount);
      const sealedDetails = await sealTransfer(service, sender, plan);
      // The row and the key's binding in one database transaction (see bindResourceIn).
      const row = await service.db.transaction(async (tx) => {
        const inserted = await insertSubmittingTransferIn(service, tx, {
          id,
          accountId: account.id,
          apiKeyId,
          fromHandle: account.handle,
          to: recipient.to,
          recipientAddress: recipient.wallet,
          asset: asset.symbol,
          confidential: body.confidential,
          usageIncrement,
          sealedDetails,
          createdAt: nowIso(),
        });
        await input.idempotency?.bindResourceIn(tx, id);
        return inserted;
      });
      const submission = await submit(service, sender, plan);
      return recordSubmission(service, {
        sender,
        plan,
        apiKeyId,
        usageIncrement: row.usageIncrement,
        submission,
      });
    });
  });
}

/**
 * The recipient side, checked before anything is written: a confidential transfer needs the
 * recipient's token account ready for confidential credits; a memo is encrypted to the recipient's
 * ElGamal key, so a public transfer with a memo needs a recipient with a confidential account; an
 * agent's confidential transfer cannot carry a memo (agent-transfer.ts explains the packet limit).
 */
async function checkRecipientAndMemo(
  service: ServiceContext,
  input: {
    readonly recipient: Recipient;
    readonly asset: ResolvedAsset;
    readonly confidential: boolean;
    readonly memo: string | null;
    readonly agentSender: boolean;
  },
): Promise<void> {
  const { recipient, asset } = input;
  if (input.memo !== null && input.agentSender && input.confidential) {
    throw new ApiError("invalid_request", MEMO_REFUSALS.agentConfidentialTransfer, "memo");
  }
  if (input.confidential) {
    const readiness = await confidentialReadiness(service.chain, recipient.wallet, asset.mint);
    if (readiness !== "ready") {
      throw new ApiError(
        "recipient_not_confidential_ready",
        `the recipient's ${asset.symbol} account cannot receive confidential transfers (${readiness.replaceAll("_", " ")}); retry with confidential: false`,
        "to",
      );
    }
    return;
  }
  if (input.memo !== null) {
    const destination = await findTokenAccount(recipient.wallet, asset.mint);
    if ((await readConfidentialState(service.chain, destination)) === null) {
      throw new ApiError("invalid_request", MEMO_REFUSALS.recipientWithoutConfidentialAccount, "memo");
    }
  }
}

/** Submits the plan; on failure records what the failure means and throws the caller's answer. */
async function submit(service: ServiceContext, sender: Sender, plan: TransferPlan): Promise<Submission> {
  try {
    return await withResubmission(service, { sender, plan }, () =>
      sender.kind === "agent"
        ? submitAgentTransfer(service, sender, plan)
        : submitOwnerTransfer(service, sender, plan),
    );
  } catch (error) {
    const failure = classifySubmissionFailure(error);
    const log = { transfer_id: plan.id, err: describeUnexpected(error) };
    if (failure === null) {
      // Unknown outcome: the row stays `submitting` and crash recovery settles it from the chain.
      service.logger.error(log, "transfer submission ended in an unknown state; left for reconciliation");
      throw new ApiError(
        "transfer_outcome_unknown",
        `transfer ${plan.id} was submitted but the cluster's answer was lost; it settles by itself: GET /v1/transfers/${plan.id}`,
        "transfer_id",
      );
    }
    service.logger.warn({ ...log, failure_code: failure.failureCode }, "transfer failed before funds moved");
    await markFailed(service, plan.id, {
      from: "submitting",
      failureCode: failure.failureCode,
      fireEvent: failure.kind === "not_sent",
    });
    throw failure.answer;
  }
}

async function recordSubmission(
  service: ServiceContext,
  input: {
    readonly sender: Sender;
    readonly plan: TransferPlan;
    readonly apiKeyId: string | null;
    readonly usageIncrement: string | null;
    readonly submission: Submission;
  },
): Promise<TTransfer> {
  const { sender, plan, submission } = input;
  if (submission.outcome === "held") {
    const held = await markHeld(service, plan.id, {
      agent: sender.account,
      hold: submission.hold,
      signature: submission.signature,
      signatures: submission.signatures,
      sealedAmount: await sealHeldAmount(service, sender, plan, submission.hold.address),
    });
    return heldTransferView(held, feesOf(plan.opening, plan.asset));
  }
  const submitted = await markSubmitted(service, plan.id, {
    signature: submission.signature,
    signatures: submission.signatures,
    usage: { apiKeyId: input.apiKeyId, increment: input.usageIncrement },
  });
  // `pending` until the indexer, the one writer of `confirmed`, has read the program's event.
  return transferView(submitted, null, feesOf(plan.opening, plan.asset));
}
