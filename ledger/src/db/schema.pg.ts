/** The tables with PostgreSQL's column builders (read by drizzle-kit for `migrations/postgres`). */
import { bigint, boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { defineTables } from "./schema";

export const pgTables = defineTables({
  table: pgTable,
  text,
  int: (name) => bigint(name, { mode: "number" }),
  bool: boolean,
  index,
  uniqueIndex,
});

export const {
  accounts,
  vaultSecrets,
  apiKeys,
  transfers,
  holds,
  idempotencyKeys,
  events,
  webhookSubscriptions,
  webhookDeliveries,
  indexerCheckpoints,
  indexedEvents,
  relayFeeUsage,
  receiptClosures,
  reserveUsage,
  reserveAdvances,
  reserveReconciliations,
  leases,
  rateWindows,
  enrollmentTokens,
  passkeys,
  sessions,
  webauthnChallenges,
  x402Settlements,
  serviceMeta,
} = pgTables;
