/**
 * `GET /v1/transfers` (spec 4.3): the transfers the caller's account sent, and those it received once
 * confirmed (visible-transfers.ts; `direction` picks one side), newest first (`created_at`
 * desc, then id desc so equal timestamps page stably), with `limit`/`offset` paging (the contract
 * bounds them: 1-100, default 20) and optional filters: `status`, and a creation-time window —
 * `from` inclusive, `to` exclusive, so consecutive windows never count a transfer twice.
 * `from` later than `to` is `400 invalid_request` naming `from`.
 * Envelope (DESIGN 7): `{transfers, total, limit, offset, has_more}`.
 */

import type { AccountRow } from "@cpay/ledger";
import type { TTransferList, ZListTransfersQuery } from "@cpay/sdk/api";
import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { approvalsOf, transferDetailView } from "./transfer-view";
import { visibleTransfers } from "./visible-transfers";

/** One page of the caller's transfers. */
export async function listTransfers(
  service: ServiceContext,
  account: AccountRow,
  query: z.output<typeof ZListTransfersQuery>,
): Promise<TTransferList> {
  const from = query.from === undefined ? undefined : storedForm(query.from, "from");
  const to = query.to === undefined ? undefined : storedForm(query.to, "to");
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiError("invalid_request", "from: must not be later than to", "from");
  }
  const { transfers } = service.db.tables;
  const conditions: SQL[] = [visibleTransfers(service, account, query.direction)];
  if (query.status !== undefined) conditions.push(eq(transfers.status, query.status));
  if (from !== undefined) conditions.push(gte(transfers.createdAt, from));
  if (to !== undefined) conditions.push(lt(transfers.createdAt, to));
  const where = and(...conditions);
  const [rows, counted] = await service.db.read(
    async (db) =>
      [
        await db
          .select()
          .from(transfers)
          .where(where)
          .orderBy(desc(transfers.createdAt), desc(transfers.id))
          .limit(query.limit)
          .offset(query.offset),
        await db.select({ n: sql<number>`count(*)` }).from(transfers).where(where),
      ] as const,
  );
  const total = Number(counted[0]?.n ?? 0);
  const approvals = await approvalsOf(service, rows);
  return {
    transfers: rows.map((row) => transferDetailView(row, approvals.get(row.id) ?? null, account)),
    total,
    limit: query.limit,
    offset: query.offset,
    has_more: query.offset + rows.length < total,
  };
}

/**
 * A query timestamp in the form rows store (`toISOString`: milliseconds, `Z`), so the string
 * comparison in SQL is a time comparison (`...:00Z` would sort after `...:00.000Z`).
 */
function storedForm(timestamp: string, param: "from" | "to"): string {
  const time = new Date(timestamp);
  if (Number.isNaN(time.getTime())) {
    throw new ApiError("invalid_request", `${param}: not a valid ISO 8601 time`, param);
  }
  return time.toISOString();
}
