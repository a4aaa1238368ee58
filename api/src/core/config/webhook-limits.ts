/**
 * Webhook delivery limits and secret rotation as configured (api/README.md, "Webhooks: delivery
 * limits and signatures"), read by webhooks/.
 */
import { integerFromEnv } from "@cpay/ledger/config";

export interface WebhookLimits {
  /** Absolute milliseconds one delivery attempt may take, connect to last response byte. */
  readonly attemptDeadlineMs: number;
  /** Attempts in flight per account per process, so one account's receivers cannot take every slot. */
  readonly accountSlots: number;
  /** Live subscriptions per account. */
  readonly maxSubscriptionsPerAccount: number;
  /** Seconds a rotated-out signing secret keeps signing beside the new one. */
  readonly rotationGraceSeconds: number;
}

/** The webhook settings of `env`, with their defaults. */
export function webhookLimitsFromEnv(env: NodeJS.ProcessEnv): WebhookLimits {
  return {
    attemptDeadlineMs: integerFromEnv(env, "WEBHOOK_ATTEMPT_DEADLINE_MS", 10_000, 100, 45_000),
    accountSlots: integerFromEnv(env, "WEBHOOK_ACCOUNT_SLOTS", 8, 1, 32),
    maxSubscriptionsPerAccount: integerFromEnv(env, "WEBHOOK_MAX_SUBSCRIPTIONS_PER_ACCOUNT", 10, 1, 1_000),
    rotationGraceSeconds: integerFromEnv(env, "WEBHOOK_SECRET_ROTATION_GRACE_SECONDS", 86_400, 0, 2_592_000),
  };
}
