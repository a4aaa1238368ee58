/**
 * Per-key usage of transfers (spec 5.6: "request count and total USDG transferred"): the key that
 * made a transfer counts it once its funds-moving transaction landed. The total is never plaintext:
 * it is an ElGamal running total under the account's own key (sdk `encrypted-total`), which the
 * service adds to and only the account holder can read (`decryptEncryptedTotal`).
 *
 * The read-add-write runs inside the caller's transaction and only writes over the value it read
 * (compare-and-set), so two transfers of one key landing together both count on PostgreSQL too.
 */
import {
  addToEncryptedTotal,
  emptyEncryptedTotal,
  encryptedTotalFromBase64,
  encryptedTotalToBase64,
} from "@cpay/sdk/confidential";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import type { ServiceContext } from "../service-context";

const MAX_ATTEMPTS = 20;

/** What one transfer adds to its key's usage. */
export interface TransferUsage {
  readonly apiKeyId: string;
  /**
   * The amount and the account's ElGamal key to add it under; null when the amount is gone (a
   * transfer settled by crash recovery: amounts are never stored), then only the count grows.
   */
  readonly added: { readonly elgamalPubkey: Uint8Array; readonly amount: bigint } | null;
}

/** Adds one transfer to the key's count and its amount to the key's encrypted total. */
export async function recordTransferUsage(
  service: ServiceContext,
  tx: Db,
  input: TransferUsage,
): Promise<void> {
  const { apiKeys } = service.db.tables;
  const count = sql`${apiKeys.transferCount} + 1`;
  const { added } = input;
  if (added === null) {
    await tx.update(apiKeys).set({ transferCount: count }).where(eq(apiKeys.id, input.apiKeyId));
    return;
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const [key] = await tx
      .select({ total: apiKeys.transferredTotal })
      .from(apiKeys)
      .where(eq(apiKeys.id, input.apiKeyId));
    if (key === undefined) return;
    const previous = key.total === null ? emptyEncryptedTotal() : encryptedTotalFromBase64(key.total);
    const next = encryptedTotalToBase64(addToEncryptedTotal(previous, added.elgamalPubkey, added.amount));
    const updated = await tx
      .update(apiKeys)
      .set({ transferCount: count, transferredTotal: next })
      .where(
        and(
          eq(apiKeys.id, input.apiKeyId),
          key.total === null ? isNull(apiKeys.transferredTotal) : eq(apiKeys.transferredTotal, key.total),
        ),
      )
      .returning({ id: apiKeys.id });
    if (updated.length === 1) return;
  }
  throw new Error(`the usage of key ${input.apiKeyId} kept changing under ${MAX_ATTEMPTS} attempts`);
}
