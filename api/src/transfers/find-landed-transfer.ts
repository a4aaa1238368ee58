/**
 * Crash recovery's question for a `submitting` transfer: did it land? The chain answers by the
 * transfer id (the row id's 16 bytes), which every transfer the service makes carries:
 * - a personal/business account's transfer: its Receipt PDA `["receipt", wallet, transfer_id]`
 *   exists exactly when the funds-moving transaction landed (the record rides in it); the
 *   transaction is the receipt's first successful signature;
 * - an agent's transfer: the program's `TransferExecuted` / `ConfidentialTransferExecuted` (not from
 *   a hold) or `TransactionHeld` event with that id, in the agent PDA's recent transactions.
 */
import { findReceiptPda } from "@cpay/sdk";
import { type Address, address } from "@solana/kit";
import type { AccountRow, TransferRow } from "../db/rows";
import { bytesOfId } from "../ids";
import type { ServiceContext } from "../service-context";
import { transferOutcomeIn } from "./transfer-outcome";

export type LandedTransfer =
  | { readonly outcome: "executed"; readonly signature: string }
  | { readonly outcome: "held"; readonly signature: string; readonly pending: Address };

/** How far back (before the row was written) an agent's history is searched. */
const HISTORY_MARGIN_SECONDS = 600n;
const PAGE = 500;
const MAX_PAGES = 20;

/** What landed for `transfer` (sent by `sender`), or null if nothing did. */
export async function findLandedTransfer(
  service: ServiceContext,
  transfer: TransferRow,
  sender: AccountRow,
): Promise<LandedTransfer | null> {
  return sender.type === "agent"
    ? findAgentTransfer(service, transfer, address(sender.publicKey))
    : findRecordedTransfer(service, transfer, address(sender.publicKey));
}

async function findRecordedTransfer(
  service: ServiceContext,
  transfer: TransferRow,
  wallet: Address,
): Promise<LandedTransfer | null> {
  const [receipt] = await findReceiptPda(
    { sender: wallet, transferId: bytesOfId(transfer.id) },
    { programAddress: address(service.cluster.programId) },
  );
  if (service.cluster.getAccount(receipt) === null) return null;
  const succeeded = service.cluster.getSignaturesForAddress(receipt).filter((entry) => entry.err === null);
  const first = succeeded[succeeded.length - 1];
  return first === undefined ? null : { outcome: "executed", signature: first.signature };
}

async function findAgentTransfer(
  service: ServiceContext,
  transfer: TransferRow,
  agent: Address,
): Promise<LandedTransfer | null> {
  const programAddress = address(service.cluster.programId);
  const since = BigInt(Math.floor(Date.parse(transfer.createdAt) / 1000)) - HISTORY_MARGIN_SECONDS;
  let held: LandedTransfer | null = null;
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const entries = service.cluster.getSignaturesForAddress(agent, {
      limit: PAGE,
      ...(before ? { before } : {}),
    });
    for (const entry of entries) {
      if (entry.blockTime < since) return held;
      if (entry.err !== null) continue;
      const landed = service.cluster.getTransaction(entry.signature);
      if (landed === null) continue;
      const found = transferOutcomeIn(landed.logs, programAddress, transfer.id);
      if (found?.outcome === "executed") return { outcome: "executed", signature: entry.signature };
      if (found?.outcome === "held")
        held = { outcome: "held", signature: entry.signature, pending: found.pending };
    }
    if (entries.length < PAGE) return held;
    before = entries[entries.length - 1]?.signature;
  }
  return held;
}
