/**
 * The tables with SQLite's column builders (read by drizzle-kit for `migrations/sqlite`). The cast
 * is the one place the two dialects meet: `defineTables` is typed with PostgreSQL's builders, and
 * SQLite's have the same names and call shapes for every builder it uses (database.ts).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { type ColumnKit, defineTables, type Tables } from "./schema";

export const sqliteTables: Tables = defineTables({
  table: sqliteTable,
  text,
  int: (name: string) => integer(name, { mode: "number" }),
  bool: (name: string) => integer(name, { mode: "boolean" }),
  index,
  uniqueIndex,
} as unknown as ColumnKit);

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
} = sqliteTables;
