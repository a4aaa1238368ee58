/**
 * Per-key usage of transfers (spec 5.6: "request count and total USDG transferred"): the key that
 * made a transfer counts it once its funds-moving transaction landed (at once, at the approval of a
 * hold, or found by crash recovery). The total is never plaintext: it is an ElGamal running total
 * under the account's own key (sdk `encrypted-total`); each transfer's amount is encrypted once,
 * before submission, into the row's `usage_increment`, and added homomorphically when it counts.
 * Only the account holder can read a total (`decryptEncryptedTotal`).
 *
 * The read-add-write runs inside the caller's transaction and only writes over the value it read
 * (compare-and-set), so two transfers of one key landing together both count on PostgreSQL too.
 */
import {
  addToEncryptedTotal,
  emptyEncryptedTotal,
  encryptedTotalFromBase64,
  encryptedTotalToBase64,
  sumEncryptedTotals,
} from "@cpay/sdk/confidential";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import type { OutboxContext } from "../events/record-event";

const MAX_ATTEMPTS = 20;

/** What one transfer adds to its key's usage. */
export interface TransferUsage {
  /** Null for a transfer the indexer found on chain (no key made it): nothing to count. */
  readonly apiKeyId: string | null;
  /**
   * The transfer's amount as an encrypted total under the account's key (the row's
   * `usage_increment`, base64); null for a row written before increments existed, then only the
   * count grows.
   */
  readonly increment: string | null;
}

/** The usage increment of a transfer of `amount`: encrypted once, before submission, stored with the row. */
export function usageIncrementOf(elgamalPubkey: Uint8Array, amount: bigint): string {
  return encryptedTotalToBase64(addToEncryptedTotal(emptyEncryptedTotal(), elgamalPubkey, amount));
}

/** Adds one transfer to the key's count and its amount to the key's encrypted total. */
export async function recordTransferUsage(
  service: OutboxContext,
  tx: Db,
  input: TransferUsage,
): Promise<void> {
  const { apiKeys } = service.db.tables;
  const count = sql`${apiKeys.transferCount} + 1`;
  const { increment, apiKeyId } = input;
  if (apiKeyId === null) return;
  if (increment === null) {
    await tx.update(apiKeys).set({ transferCount: count }).where(eq(apiKeys.id, apiKeyId));
    return;
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const [key] = await tx
      .select({ total: apiKeys.transferredTotal })
      .from(apiKeys)
      .where(eq(apiKeys.id, apiKeyId));
    if (key === undefined) return;
    const previous = key.total === null ? emptyEncryptedTotal() : encryptedTotalFromBase64(key.total);
    const next = encryptedTotalToBase64(sumEncryptedTotals(previous, encryptedTotalFromBase64(increment)));
    const updated = await tx
      .update(apiKeys)
      .set({ transferCount: count, transferredTotal: next })
      .where(
        and(
          eq(apiKeys.id, apiKeyId),
          key.total === null ? isNull(apiKeys.transferredTotal) : eq(apiKeys.transferredTotal, key.total),
        ),
      )
      .returning({ id: apiKeys.id });
    if (updated.length === 1) return;
  }
  throw new Error(`the usage of key ${apiKeyId} kept changing under ${MAX_ATTEMPTS} attempts`);
}
