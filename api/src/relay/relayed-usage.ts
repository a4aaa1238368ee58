/**
 * The usage increment of a relayed confidential transfer (spec 5.6, "total USDG transferred" per
 * key). The service never sees its amount; the transfer's ciphertext-validity context already
 * holds it encrypted under the agent's own key, in the halves an encrypted total keeps (sdk
 * `encryptedTotalOfTransfer`). It is read just before the transfer's transaction is submitted
 * (the agent verified the context in an earlier transaction) and written into the row while it is
 * still `submitting`, so whichever of the relay and the indexer records the transfer as submitted
 * adds it to the key's total.
 *
 * A context that is missing or not the agent's (owner, type, authority, source key) leaves the
 * row without an increment: the transfer then counts without an amount, as before. Left open: the
 * agent could close and re-create the context with another amount between this read and the
 * submission; that distorts only its own key's usage figure, never a limit (the program enforces
 * those on chain from the context it consumes).
 */

import type { AccountRow, TransferRow } from "@cpay/ledger";
import { encryptedTotalOfTransfer, readTransferValidityContext } from "@cpay/sdk/agent-confidential";
import { encryptedTotalToBase64 } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../core/service-context";
import { confidentialKeysOf } from "../vault/account-secrets";

/** Stores the increment read from `validityContext` on the still-`submitting` row; the row as it now is. */
export async function recordConfidentialUsage(
  service: ServiceContext,
  agent: AccountRow,
  row: TransferRow,
  validityContext: string,
): Promise<TransferRow> {
  const keys = await confidentialKeysOf(service, agent);
  const context = await readTransferValidityContext(service.chain, address(validityContext), {
    authority: address(agent.publicKey),
    sourcePubkey: keys.elgamalPubkey,
  });
  if (context === null) return row;
  const { transfers } = service.db.tables;
  const [updated] = await service.db.transaction((tx) =>
    tx
      .update(transfers)
      .set({ usageIncrement: encryptedTotalToBase64(encryptedTotalOfTransfer(context)) })
      .where(and(eq(transfers.id, row.id), eq(transfers.phase, "submitting")))
      .returning(),
  );
  return updated ?? row;
}
