/**
 * The row of a relayed transfer, through the same lifecycle as the API's own (transfer-transitions):
 * written `submitting` before anything is submitted (with the agent key that asked, and for a
 * public amount its usage increment, encrypted under the agent's key), then `submitted` or `held`
 * from the program's events once it landed, or `failed` (never initiated) when the relay refused
 * it. The indexer confirms it like any other.
 */
import { readHold } from "@cpay/sdk/agent-confidential";
import type { TTransfer } from "@cpay/sdk/api";
import { tokenAccountOwnerOf } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { nameOfAddress } from "../accounts/account-by-address";
import { isUniqueViolation } from "../db/database";
import type { AccountRow, TransferRow } from "../db/rows";
import { ApiError } from "../http/api-error";
import { idFromBytes, nowIso } from "../ids";
import type { ServiceContext } from "../service-context";
import { markHeld } from "../transfers/mark-held";
import { usageIncrementOf } from "../transfers/record-usage";
import { transferOutcomeIn } from "../transfers/transfer-outcome";
import { insertSubmittingTransfer, markFailed, markSubmitted } from "../transfers/transfer-transitions";
import { heldTransferView, transferView } from "../transfers/transfer-view";
import { confidentialKeysOf } from "../vault/account-secrets";
import type { RelayedIntent } from "./relayed-intent";

/** Writes the row before submission; a transfer id already used is refused with nothing signed. */
export async function recordRelayedIntent(
  service: ServiceContext,
  agent: AccountRow,
  apiKeyId: string,
  intent: RelayedIntent,
): Promise<TransferRow> {
  const id = idFromBytes("tr", intent.transferId);
  const owner = ownerOfTokenAccount(service, intent.destination);
  const keys = intent.amount === null ? null : await confidentialKeysOf(service, agent);
  try {
    return await insertSubmittingTransfer(service, {
      id,
      accountId: agent.id,
      apiKeyId,
      fromHandle: agent.handle,
      to: await service.db.read((q) => nameOfAddress(service, q, owner ?? intent.destination)),
      recipientAddress: owner ?? intent.destination,
      asset: intent.mint === service.cluster.usdgMint ? "USDG" : intent.mint,
      confidential: intent.confidential,
      usageIncrement:
        keys === null || intent.amount === null ? null : usageIncrementOf(keys.elgamalPubkey, intent.amount),
      createdAt: nowIso(),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError(
      "relay_transaction_refused",
      `transaction ${intent.wireIndex} reuses transfer id ${id}; each transfer needs a fresh one; nothing was signed`,
      `transactions[${intent.wireIndex}]`,
    );
  }
}

/**
 * The transfer's transaction landed as `signature`: `submitted` or `held`, from its events; the
 * answer in the shape of `POST /v1/transfers`.
 */
export async function recordRelayedOutcome(
  service: ServiceContext,
  agent: AccountRow,
  row: TransferRow,
  signature: string,
): Promise<TTransfer> {
  const landed = service.cluster.getTransaction(signature);
  if (landed === null)
    throw new ApiError("chain_unavailable", `the transfer's transaction ${signature} did not land`);
  const found = transferOutcomeIn(landed.logs, address(service.cluster.programId), row.id);
  if (found?.outcome === "executed") {
    const submitted = await markSubmitted(service, row.id, {
      signature,
      signatures: [signature],
      usage: { apiKeyId: row.apiKeyId, increment: row.usageIncrement },
    });
    return transferView(submitted, null);
  }
  const hold = found?.outcome === "held" ? readHold(service.cluster, found.pending) : null;
  if (hold !== null) {
    const held = await markHeld(service, row.id, { agent, hold, signature, signatures: [signature] });
    return heldTransferView(held);
  }
  throw new ApiError(
    "chain_unavailable",
    `the transfer's transaction ${signature} landed without the program's transfer events; the indexer will record what it did`,
  );
}

/** The relay refused or the chain failed the transfer before it landed: never initiated. */
export async function recordRelayedRefusal(
  service: ServiceContext,
  row: TransferRow,
  code: string,
): Promise<void> {
  await markFailed(service, row.id, { from: "submitting", failureCode: code, fireEvent: false });
}

function ownerOfTokenAccount(service: ServiceContext, tokenAccount: string): string | null {
  const account = service.cluster.getAccount(tokenAccount);
  return account === null ? null : tokenAccountOwnerOf(account.owner, account.data);
}
