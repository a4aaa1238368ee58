/**
 * Creating, listing and deleting webhook subscriptions (spec 4.12-4.14). The URL is checked by the
 * SSRF policy (url-policy.ts) at creation and again before every delivery (DNS can change). The
 * `whsec_` secret is shown once and kept sealed in the vault. An account has at most
 * `WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT` live subscriptions (`409 webhook_limit_reached`): each
 * one multiplies every event of the account into deliveries. Rotating the secret shows the new one
 * once; the old one keeps signing beside it for the grace period, so a receiver can switch without
 * refusing deliveries. Deleting is immediate and cancels the subscription's queued deliveries in
 * the same transaction.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "@cpay/ledger/database";
import { newId, nowIso } from "@cpay/ledger/ids";
import type { TCreateWebhookRequest } from "@cpay/sdk/api";
import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { deleteSecret, loadSecret, storeSecret } from "../vault/account-secrets";
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
  const max = service.config.webhooks.maxSubscriptionsPerAccount;
  const refuseOverCap = () =>
    new ApiError(
      "webhook_limit_reached",
      `an account can have at most ${max} webhook subscriptions; delete one first`,
    );
  // Checked before anything is bound, and again in the writing transaction (concurrent creates).
  if ((await service.db.read((db) => liveSubscriptionCount(service, db, accountId))) >= max)
    throw refuseOverCap();
  const secret = newWebhookSecret();
  const row: SubscriptionRow = {
    id: newId("wh"),
    accountId,
    url: check.url.toString(),
    events: JSON.stringify([...new Set(input.events)]),
    // The service clock, as events are stamped: fan-out compares the two.
    createdAt: new Date(service.clock()).toISOString(),
    deletedAt: null,
    secretVersion: 1,
    previousSecretExpiresAt: null,
  };
  await bind?.(row.id);
  await service.db.transaction(async (tx) => {
    if (service.db.dialect === "postgres") {
      // Serialises this account's creates, so two at once cannot both pass the count.
      const { accounts } = service.db.tables;
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    }
    if ((await liveSubscriptionCount(service, tx, accountId)) >= max) throw refuseOverCap();
    await tx.insert(service.db.tables.webhookSubscriptions).values(row);
    await storeSecret(service, tx, row.id, "webhook_secret", new TextEncoder().encode(secret));
  });
  return { ...subscriptionView(row), secret };
}

/**
 * A new signing secret: `whsec_` and the standard base64 of 32 random bytes, the form Standard
 * Webhooks libraries decode into the HMAC key.
 */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

async function liveSubscriptionCount(service: ServiceContext, db: Db, accountId: string): Promise<number> {
  const { webhookSubscriptions } = service.db.tables;
  const [row] = await db
    .select({ n: count() })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.accountId, accountId), isNull(webhookSubscriptions.deletedAt)));
  return Number(row?.n ?? 0);
}

/**
 * Replaces the subscription's signing secret and shows the new one once. The one it replaces
 * becomes the previous secret and keeps signing beside the new one (a second `v1,` entry of
 * `webhook-signature`) until `previous_secret_expires_at`; a secret rotated out before is dropped.
 */
export async function rotateSubscriptionSecret(
  service: ServiceContext,
  accountId: string,
  webhookId: string,
): Promise<{ webhook_id: string; secret: string; previous_secret_expires_at: string }> {
  const row = await findSubscription(service, accountId, webhookId);
  const current = await loadSecret(service, row.id, "webhook_secret");
  const secret = newWebhookSecret();
  const expiresAt = new Date(
    service.clock() + service.config.webhooks.rotationGraceSeconds * 1000,
  ).toISOString();
  const { webhookSubscriptions } = service.db.tables;
  const rotated = await service.db.transaction(async (tx) => {
    // Only from the version read above: a concurrent rotation makes this one start over.
    const updated = await tx
      .update(webhookSubscriptions)
      .set({ secretVersion: row.secretVersion + 1, previousSecretExpiresAt: expiresAt })
      .where(
        and(
          eq(webhookSubscriptions.id, row.id),
          eq(webhookSubscriptions.secretVersion, row.secretVersion),
          isNull(webhookSubscriptions.deletedAt),
        ),
      )
      .returning({ id: webhookSubscriptions.id });
    if (updated.length === 0) return false;
    await deleteSecret(service, tx, row.id, "webhook_secret_previous");
    await deleteSecret(service, tx, row.id, "webhook_secret");
    await storeSecret(service, tx, row.id, "webhook_secret_previous", current);
    await storeSecret(service, tx, row.id, "webhook_secret", new TextEncoder().encode(secret));
    return true;
  });
  if (!rotated) return rotateSubscriptionSecret(service, accountId, webhookId);
  return { webhook_id: row.id, secret, previous_secret_expires_at: expiresAt };
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
