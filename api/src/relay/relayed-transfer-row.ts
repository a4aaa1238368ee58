/**
 * The rows of a relayed request's transfers, through the same lifecycle as the API's own
 * (transfer-transitions): every one written `submitting` before anything is submitted, in one
 * database transaction (with the agent key that asked, and for a public amount its usage
 * increment, encrypted under the agent's key); then each `submitted` or `held` from the program's
 * events as soon as its own transaction landed, or `failed` (never initiated) when the relay
 * refused its transaction or one before it. The indexer confirms them like any other.
 */

import type { AccountRow, TransferRow } from "@cpay/ledger";
import {
  insertSubmittingTransferIn,
  markFailed,
  markHeld,
  markSubmitted,
  nameOfAddress,
  type SubmittingTransfer,
  usageIncrementOf,
} from "@cpay/ledger";
import { isUniqueViolation } from "@cpay/ledger/database";
import { idFromBytes, nowIso } from "@cpay/ledger/ids";
import { readHold } from "@cpay/sdk/agent-confidential";
import type { TTransfer } from "@cpay/sdk/api";
import { confirmedTransaction } from "@cpay/sdk/chain";
import { address } from "@solana/kit";
import { tokenAccountOwner } from "../chain/token-account-owner";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { transferOutcomeIn } from "../transfers/transfer-outcome";
import { heldTransferView, NO_FEES, transferView } from "../transfers/transfer-view";
import { confidentialKeysOf } from "../vault/account-secrets";
import type { RelayedIntent } from "./relayed-intent";

/**
 * Writes every intent's row before submission (`rows[i]` for `intents[i]`), all or none; a transfer
 * id used before, or twice in the request, is refused with nothing signed.
 */
export async function recordRelayedIntents(
  service: ServiceContext,
  agent: AccountRow,
  apiKeyId: string,
  intents: readonly RelayedIntent[],
): Promise<TransferRow[]> {
  refuseRepeatedIds(intents);
  const values: SubmittingTransfer[] = [];
  const keys = intents.some((intent) => intent.amount !== null)
    ? await confidentialKeysOf(service, agent)
    : null;
  const owners = await Promise.all(intents.map((intent) => tokenAccountOwner(service, intent.destination)));
  for (const [at, intent] of intents.entries()) {
    const id = idFromBytes("tr", intent.transferId);
    const owner = owners[at] ?? null;
    values.push({
      id,
      accountId: agent.id,
      apiKeyId,
      fromHandle: agent.handle,
      to: await service.db.read((q) => nameOfAddress(service, q, owner ?? intent.destination)),
      recipientAddress: owner ?? intent.destination,
      // The agent made this transfer itself; the service seals only the transfers it creates.
      sealedDetails: null,
      asset: intent.mint === service.chain.usdgMint ? "USDG" : intent.mint,
      confidential: intent.confidential,
      usageIncrement:
        keys === null || intent.amount === null ? null : usageIncrementOf(keys.elgamalPubkey, intent.amount),
      createdAt: nowIso(),
    });
  }
  return service.db.transaction(async (tx) => {
    const rows: TransferRow[] = [];
    for (const [at, row] of values.entries()) {
      const intent = intents[at] as RelayedIntent;
      try {
        rows.push(await insertSubmittingTransferIn(service, tx, row));
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw reusedId(intent, row.id);
      }
    }
    return rows;
  });
}

/** A transfer id twice in one request is refused before anything is reserved or signed. */
export function refuseRepeatedIds(intents: readonly RelayedIntent[]): void {
  const seen = new Set<string>();
  for (const intent of intents) {
    const id = idFromBytes("tr", intent.transferId);
    if (seen.has(id)) throw reusedId(intent, id);
    seen.add(id);
  }
}

function reusedId(intent: RelayedIntent, id: string): ApiError {
  return new ApiError(
    "relay_transaction_refused",
    `transaction ${intent.wireIndex} reuses transfer id ${id}; each transfer needs a fresh one; nothing was signed`,
    `transactions[${intent.wireIndex}]`,
  );
}

/**
 * The intent's transaction landed as `signature`: `submitted` or `held`, from the events of the
 * agent's own transfer (its PDA, the intent's destination and mint); the answer in the shape of
 * `POST /v1/transfers`. A hold keeps `sealedAmount`, the amount as the agent stated it to its owner.
 * The relay charges no fee (it never opens an outside owner's account: external-account-opening.ts).
 */
export async function recordRelayedOutcome(
  service: ServiceContext,
  agent: AccountRow,
  row: TransferRow,
  intent: RelayedIntent,
  signature: string,
  sealedAmount: string | null,
): Promise<TTransfer> {
  const landed = await confirmedTransaction(service.chain, signature);
  if (landed === null)
    throw new ApiError("chain_unavailable", `the transfer's transaction ${signature} did not land`);
  const isIntended = (moved: { destination: string; mint: string; confidential: boolean }) =>
    moved.destination === intent.destination &&
    moved.mint === intent.mint &&
    moved.confidential === intent.confidential;
  const found = await transferOutcomeIn(landed.logs, address(service.chain.programId), row.id, {
    agent: agent.publicKey,
    moves: isIntended,
  });
  if (found?.outcome === "executed") {
    const submitted = await markSubmitted(service, row.id, {
      signature,
      signatures: [signature],
      usage: { apiKeyId: row.apiKeyId, increment: row.usageIncrement },
    });
    return transferView(submitted, null, NO_FEES);
  }
  const hold = found?.outcome === "held" ? await readHold(service.chain, found.pending) : null;
  if (hold !== null && hold.agent === agent.publicKey && isIntended(hold)) {
    const held = await markHeld(service, row.id, {
      agent,
      hold,
      signature,
      signatures: [signature],
      sealedAmount,
    });
    return heldTransferView(held, NO_FEES);
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
