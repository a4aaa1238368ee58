/**
 * A transfer the indexer found on chain with no row behind it: an agent that signs through its PDA
 * itself (not through the API) spent, or was held. The row is written `submitting`, exactly as the
 * API writes its own before submission, so the usual transitions (and their events) follow.
 */

import { type AccountRow, nameOfAddress, submittingTransferRow, type TransferRow } from "@cpay/ledger";
import type { Db } from "@cpay/ledger/database";
import { type ApplyContext, blockIso } from "./apply-context";

export interface FoundTransfer {
  readonly transferId: string;
  readonly sender: AccountRow;
  /** The wallet/PDA owning the destination token account (or the token account if unknown). */
  readonly recipientAddress: string;
  /** `@handle` as the hold recorded it, if it did. */
  readonly recipientHandle: string | null;
  readonly mint: string;
  readonly confidential: boolean;
  readonly blockTime: bigint;
  /** When the indexer saw it at confirmed (unix ms). */
  readonly seenAt: number;
}

/** The row as it would be written (not written yet: the caller checks the fact binds to it first). */
export async function foundTransferRow(
  ctx: ApplyContext,
  tx: Db,
  found: FoundTransfer,
): Promise<TransferRow> {
  return submittingTransferRow({
    id: found.transferId,
    accountId: found.sender.id,
    apiKeyId: null,
    fromHandle: found.sender.handle,
    to:
      found.recipientHandle === null
        ? await nameOfAddress(ctx, tx, found.recipientAddress)
        : `@${found.recipientHandle.replace(/^@/, "")}`,
    recipientAddress: found.recipientAddress,
    // Found on chain: the service never saw its amount, so there is nothing to seal.
    sealedDetails: null,
    asset: found.mint === ctx.usdgMint ? "USDG" : found.mint,
    confidential: found.confidential,
    usageIncrement: null,
    createdAt: blockIso(found.blockTime, found.seenAt),
  });
}

/** Writes a row built by foundTransferRow. */
export async function insertFoundTransfer(ctx: ApplyContext, tx: Db, row: TransferRow): Promise<TransferRow> {
  await tx.insert(ctx.db.tables.transfers).values(row);
  return row;
}
