/**
 * Creating, listing and deleting webhook subscriptions (spec 4.12-4.14). The URL is checked by the
 * SSRF policy (url-policy.ts) at creation and again before every delivery (DNS can change). The
 * `whsec_` secret is shown once and kept sealed in the vault. Deleting is immediate and cancels
 * the subscription's queued deliveries in the same transaction.
 */
import { randomBytes } from "node:crypto";
import type { TCreateWebhookRequest } from "@cpay/sdk/api";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { ApiError } from "../http/api-error";
import { newId, nowIso } from "../ids";
import type { ServiceContext } from "../service-context";
import { storeSecret } from "../vault/account-secrets";
import { type SubscriptionRow, subscriptionView } from "./subscription-view";
import { checkWebhookUrl } from "./url-policy";

export async function createSubscription(
  service: ServiceContext,
  accountId: string,
  input: TCreateWebhookRequest,
  bind: ((id: string) => Promise<void>) | null,
) {
  const check = await checkWebhookUrl(input.url, { allowLocal: service.config.webhooksAllowLocal });
  if (!check.ok) throw new ApiError("invalid_webhook_url", check.message, "url");
  const secret = `whsec_${randomBytes(32).toString("base64url")}`;
  const row: SubscriptionRow = {
    id: newId("wh"),
    accountId,
    url: check.url.toString(),
    events: JSON.stringify([...new Set(input.events)]),
    createdAt: nowIso(),
    deletedAt: null,
  };
  await bind?.(row.id);
  await service.db.transaction(async (tx) => {
    await tx.insert(service.db.tables.webhookSubscriptions).values(row);
    await storeSecret(service, tx, row.id, "webhook_secret", new TextEncoder().encode(secret));
  });
  return { ...subscriptionView(row), secret };
}

/**
 * Discards a subscription whose creating request died before answering (idempotency recovery):
 * its secret was never shown, so no receiver can verify its deliveries. Deleted like DELETE does
 * (queued deliveries cancelled), and its secret is removed from the vault. Nothing when absent.
 */
export async function discardUndeliveredSubscription(
  service: ServiceContext,
  accountId: string,
  webhookId: string,
): Promise<void> {
  const { vaultSecrets } = service.db.tables;
  await deleteSubscription(service, accountId, webhookId).catch((error: unknown) => {
    if (!(error instanceof ApiError && error.code === "webhook_not_found")) throw error;
  });
  await service.db.transaction((tx) =>
    tx
      .delete(vaultSecrets)
      .where(and(eq(vaultSecrets.accountId, webhookId), eq(vaultSecrets.kind, "webhook_secret")))
      .then(() => undefined),
  );
}

/** The account's live subscriptions, oldest first. */
export async function listSubscriptions(service: ServiceContext, accountId: string) {
  const { webhookSubscriptions } = service.db.tables;
  const rows = await service.db.read((db) =>
    db
      .select()
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.accountId, accountId), isNull(webhookSubscriptions.deletedAt)))
      .orderBy(asc(webhookSubscriptions.createdAt)),
  );
  return { webhooks: rows.map(subscriptionView) };
}

/** A live subscription of `accountId`, or `404 webhook_not_found` (also for another account's). */
export async function findSubscription(
  service: ServiceContext,
  accountId: string,
  webhookId: string,
): Promise<SubscriptionRow> {
  const { webhookSubscriptions } = service.db.tables;
  const [row] = await service.db.read((db) =>
    db
      .select()
      .from(webhookSubscriptions)
      .where(
        and(
          eq(webhookSubscriptions.id, webhookId),
          eq(webhookSubscriptions.accountId, accountId),
          isNull(webhookSubscriptions.deletedAt),
        ),
      ),
  );
  if (row === undefined) throw new ApiError("webhook_not_found", `no webhook ${webhookId}`, "webhook_id");
  return row;
}

export async function deleteSubscription(service: ServiceContext, accountId: string, webhookId: string) {
  const row = await findSubscription(service, accountId, webhookId);
  const { webhookSubscriptions, webhookDeliveries } = service.db.tables;
  const cancelled = await service.db.transaction(async (tx) => {
    await tx
      .update(webhookSubscriptions)
      .set({ deletedAt: nowIso() })
      .where(eq(webhookSubscriptions.id, row.id));
    return tx
      .update(webhookDeliveries)
      .set({ state: "cancelled", nextAttemptAt: null, updatedAt: nowIso() })
      .where(
        and(
          eq(webhookDeliveries.subscriptionId, row.id),
          inArray(webhookDeliveries.state, ["queued", "delivering"]),
        ),
      )
      .returning({ id: webhookDeliveries.id });
  });
  return { webhook_id: row.id, deleted: true as const, cancelled_deliveries: cancelled.length };
}
