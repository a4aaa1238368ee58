/**
 * Recovering an `Idempotency-Key` claim whose holder died after binding a resource (its lease ran
 * out; idempotency.ts took it over). The original request never answered, so the answer is made
 * from the resource, per kind (the id's prefix):
 * - `tr_` (a transfer): never sent again. Rebuilt from the transfer row, which crash recovery
 *   (transfers/recover-submissions.ts) reconciles with the chain: with its signature it is the create
 *   answer (`201`, its fees read from the landed transaction, transfers/landed-fees.ts); failed
 *   before anything landed it is `503 chain_unavailable` (or the refusal it recorded); still
 *   `submitting` it is `502 transfer_outcome_unknown`, not stored, so a later retry gets the
 *   settled answer.
 * - `acct_` (an agent): the use case resumes (create-agent.ts finishes the bound agent and hands a
 *   self-custody signer over then: the interrupted request never delivered it).
 * - `wh_` (a webhook subscription): its secret was never delivered, so nobody can verify its
 *   deliveries: the subscription is discarded and the request runs afresh (a new secret, shown once).
 * - `key_` (an API key): its value was never delivered either: the key is discarded and the request
 *   runs afresh, so the account ends with the one key its holder saw.
 */

import type { ApiErrorCode } from "@cpay/sdk/api";
import { and, eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { discardUndeliveredKey } from "../keys/manage-keys";
import { landedFeesOf } from "../transfers/landed-fees";
import { approvalsOf, transferView } from "../transfers/transfer-view";
import { discardUndeliveredSubscription } from "../webhooks/manage-subscriptions";

export type Recovery =
  /** Run the use case again; `resume`: pass it the bound resource to finish. */
  | { readonly kind: "rerun"; readonly resume: boolean }
  /** The answer; `final`: store it (a retry replays it), else answer only this request. */
  | { readonly kind: "answer"; readonly status: number; readonly body: unknown; readonly final: boolean };

/** How to answer a recovered claim that bound `resourceId` (see the module doc). */
export async function recoverBoundResource(
  service: ServiceContext,
  accountId: string,
  resourceId: string,
): Promise<Recovery> {
  if (resourceId.startsWith("tr_")) return recoverTransfer(service, accountId, resourceId);
  if (resourceId.startsWith("acct_")) return { kind: "rerun", resume: true };
  if (resourceId.startsWith("key_")) {
    await discardUndeliveredKey(service, accountId, resourceId);
    return { kind: "rerun", resume: false };
  }
  if (resourceId.startsWith("wh_")) {
    await discardUndeliveredSubscription(service, accountId, resourceId);
    return { kind: "rerun", resume: false };
  }
  return errorAnswer(new ApiError("internal_error", `cannot recover a request bound to ${resourceId}`), true);
}

async function recoverTransfer(service: ServiceContext, accountId: string, id: string): Promise<Recovery> {
  const { transfers } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(transfers)
      .where(and(eq(transfers.id, id), eq(transfers.accountId, accountId))),
  );
  // The row is written before the key is bound; without it nothing was made.
  if (row === undefined) return { kind: "rerun", resume: false };
  if (row.txSignature !== null) {
    const approval = (await approvalsOf(service, [row])).get(row.id) ?? null;
    const fees = await landedFeesOf(service, row);
    return { kind: "answer", status: 201, body: transferView(row, approval, fees), final: true };
  }
  if (row.phase === "submitting") {
    return errorAnswer(
      new ApiError(
        "transfer_outcome_unknown",
        `transfer ${id} was submitted but the cluster's answer was lost; it settles by itself: GET /v1/transfers/${id}`,
        "transfer_id",
      ),
      false,
    );
  }
  return errorAnswer(failureAnswer(id, row.failureCode), true);
}

/** The refusal a failed transfer recorded, as its create request would have answered it. */
function failureAnswer(id: string, failureCode: string | null): ApiError {
  const known: Partial<Record<string, ApiErrorCode>> = {
    insufficient_balance: "insufficient_balance",
    recipient_not_confidential_ready: "recipient_not_confidential_ready",
  };
  const code = failureCode === null ? undefined : known[failureCode];
  if (code !== undefined) return new ApiError(code, `transfer ${id} failed: ${failureCode}; nothing moved`);
  if (failureCode === null || ["chain_unavailable", "not_landed", "expired"].includes(failureCode)) {
    return new ApiError(
      "chain_unavailable",
      `transfer ${id} did not land; nothing moved, retry with a new key`,
    );
  }
  return new ApiError("policy_violation", `transfer ${id} was refused by the spend policy`, failureCode);
}

function errorAnswer(error: ApiError, final: boolean): Recovery {
  const body = {
    error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) },
  };
  return { kind: "answer", status: error.status, body, final };
}
