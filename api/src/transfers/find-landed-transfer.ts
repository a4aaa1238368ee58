/**
 * Crash recovery's question for a `submitting` transfer: did it land? The chain answers by the
 * transfer id (the row id's 16 bytes), which every transfer the service makes carries:
 * - a personal/business account's transfer: its Receipt PDA `["receipt", wallet, transfer_id]`
 *   exists exactly when the funds-moving transaction landed (the record rides in it); the
 *   transaction is the receipt's first successful signature;
 * - an agent's transfer: the program's `TransferExecuted` / `ConfidentialTransferExecuted` (not from
 *   a hold) or `TransactionHeld` event with that id, in the agent PDA's recent transactions.
 * Either way the event must be the row's (transfer-binding.ts): its signer or agent PDA, token
 * accounts and mint; an id alone proves nothing.
 */
import { findReceiptPda, parseAgentPolicyEvents } from "@cpay/sdk";
import { readHold } from "@cpay/sdk/agent-confidential";
import { type Address, address } from "@solana/kit";
import { tokenAccountOwner } from "../chain/token-account-owner";
import type { AccountRow, TransferRow } from "../db/rows";
import { bytesOfId, idFromBytes } from "../ids";
import type { ServiceContext } from "../service-context";
import { isTransferOf, type ObservedTransfer } from "./transfer-binding";
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
  const isTheRows = (observed: Omit<ObservedTransfer, "destinationOwner">) =>
    isTransferOf(transfer, sender, service.cluster.usdgMint, {
      ...observed,
      destinationOwner: tokenAccountOwner(service, observed.destination),
    });
  return sender.type === "agent"
    ? findAgentTransfer(service, transfer, address(sender.publicKey), isTheRows)
    : findRecordedTransfer(service, transfer, address(sender.publicKey), isTheRows);
}

type IsTheRows = (observed: Omit<ObservedTransfer, "destinationOwner">) => Promise<boolean>;

async function findRecordedTransfer(
  service: ServiceContext,
  transfer: TransferRow,
  wallet: Address,
  isTheRows: IsTheRows,
): Promise<LandedTransfer | null> {
  const programAddress = address(service.cluster.programId);
  const [receipt] = await findReceiptPda(
    { sender: wallet, transferId: bytesOfId(transfer.id) },
    { programAddress },
  );
  if (service.cluster.getAccount(receipt) === null) return null;
  const succeeded = service.cluster.getSignaturesForAddress(receipt).filter((entry) => entry.err === null);
  const first = succeeded[succeeded.length - 1];
  if (first === undefined) return null;
  const landed = service.cluster.getTransaction(first.signature);
  if (landed === null) return null;
  for (const event of parseAgentPolicyEvents(landed.logs, { programAddress }).events) {
    if (event.name !== "ServiceTransferRecorded") continue;
    if (idFromBytes("tr", Uint8Array.from(event.data.transferId)) !== transfer.id) continue;
    const { sender, source, destination, mint, confidential } = event.data;
    if (await isTheRows({ by: "record", sender, source, destination, mint, confidential })) {
      return { outcome: "executed", signature: first.signature };
    }
  }
  return null;
}

async function findAgentTransfer(
  service: ServiceContext,
  transfer: TransferRow,
  agent: Address,
  isTheRows: IsTheRows,
): Promise<LandedTransfer | null> {
  const programAddress = address(service.cluster.programId);
  const binding = {
    agent,
    moves: (moved: Omit<ObservedTransfer, "by" | "sender" | "destinationOwner">) =>
      isTheRows({ by: "agent", sender: agent, ...moved }),
  };
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
      const found = await transferOutcomeIn(landed.logs, programAddress, transfer.id, binding);
      if (found?.outcome === "executed") return { outcome: "executed", signature: entry.signature };
      if (found?.outcome === "held" && (await holdIsTheRows(service, found.pending, binding.moves))) {
        held = { outcome: "held", signature: entry.signature, pending: found.pending };
      }
    }
    if (entries.length < PAGE) return held;
    before = entries[entries.length - 1]?.signature;
  }
  return held;
}

/** A hold still readable must hold the row's transfer; a closed one is judged by its agent alone. */
async function holdIsTheRows(
  service: ServiceContext,
  pending: Address,
  moves: (moved: Omit<ObservedTransfer, "by" | "sender" | "destinationOwner">) => Promise<boolean>,
): Promise<boolean> {
  const hold = readHold(service.cluster, pending);
  if (hold === null) return true;
  const { source, destination, mint, confidential } = hold;
  return moves({ source, destination, mint, confidential });
}
