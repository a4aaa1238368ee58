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

import type { AccountRow, TransferRow } from "@cpay/ledger";
import { isTransferOf, type ObservedTransfer } from "@cpay/ledger";
import { bytesOfId, idFromBytes } from "@cpay/ledger/ids";
import { findReceiptPda, landedFacts } from "@cpay/sdk";
import { readHold } from "@cpay/sdk/agent-confidential";
import { confirmedTransaction } from "@cpay/sdk/chain";
import { type Address, address } from "@solana/kit";
import { tokenAccountOwner } from "../chain/token-account-owner";
import type { ServiceContext } from "../core/service-context";
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
  const isTheRows = async (observed: Omit<ObservedTransfer, "destinationOwner">) =>
    isTransferOf(transfer, sender, service.chain.usdgMint, {
      ...observed,
      destinationOwner: await tokenAccountOwner(service, observed.destination),
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
  const programAddress = address(service.chain.programId);
  const [receipt] = await findReceiptPda(
    { sender: wallet, transferId: bytesOfId(transfer.id) },
    { programAddress },
  );
  const [account, history] = await Promise.all([
    service.chain.getAccount(receipt),
    service.chain.getSignaturesForAddress(receipt),
  ]);
  if (account === null) return null;
  const succeeded = history.filter((entry) => entry.err === null);
  const first = succeeded[succeeded.length - 1];
  if (first === undefined) return null;
  const landed = await confirmedTransaction(service.chain, first.signature);
  if (landed === null) return null;
  for (const fact of landedFacts(landed, { programAddress }).facts) {
    if (fact.kind !== "transfer_executed" || fact.by !== "record") continue;
    if (idFromBytes("tr", Uint8Array.from(fact.transferId)) !== transfer.id) continue;
    const { sender, source, destination, mint, confidential } = fact;
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
  const programAddress = address(service.chain.programId);
  const binding = {
    agent,
    moves: (moved: Omit<ObservedTransfer, "by" | "sender" | "destinationOwner">) =>
      isTheRows({ by: "agent", sender: agent, ...moved }),
  };
  const since = BigInt(Math.floor(Date.parse(transfer.createdAt) / 1000)) - HISTORY_MARGIN_SECONDS;
  let held: LandedTransfer | null = null;
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const entries = await service.chain.getSignaturesForAddress(agent, {
      limit: PAGE,
      ...(before ? { before } : {}),
    });
    // Newest first: the search stops at the first entry older than `since`.
    const older = entries.findIndex((entry) => entry.blockTime < since);
    const recent = older === -1 ? entries : entries.slice(0, older);
    const transactions = await readInChunks(
      recent.map((entry) => (entry.err === null ? entry.signature : null)),
      (signature) => confirmedTransaction(service.chain, signature),
    );
    for (const [index, entry] of recent.entries()) {
      const landed = transactions[index] ?? null;
      if (landed === null) continue;
      const found = await transferOutcomeIn(landed.logs, programAddress, transfer.id, binding);
      if (found?.outcome === "executed") return { outcome: "executed", signature: entry.signature };
      if (found?.outcome === "held" && (await holdIsTheRows(service, found.pending, binding.moves))) {
        held = { outcome: "held", signature: entry.signature, pending: found.pending };
      }
    }
    if (recent.length < entries.length || entries.length < PAGE) return held;
    before = entries[entries.length - 1]?.signature;
  }
  return held;
}

/** How many transactions of a page are read at once. */
const READS_AT_ONCE = 16;

/** `read` of each non-null item, a few at a time, in order; null where the item is null. */
async function readInChunks<T>(
  items: readonly (string | null)[],
  read: (item: string) => Promise<T | null>,
): Promise<(T | null)[]> {
  const results: (T | null)[] = [];
  for (let start = 0; start < items.length; start += READS_AT_ONCE) {
    const chunk = items.slice(start, start + READS_AT_ONCE);
    results.push(...(await Promise.all(chunk.map((item) => (item === null ? null : read(item))))));
  }
  return results;
}

/** A hold still readable must hold the row's transfer; a closed one is judged by its agent alone. */
async function holdIsTheRows(
  service: ServiceContext,
  pending: Address,
  moves: (moved: Omit<ObservedTransfer, "by" | "sender" | "destinationOwner">) => Promise<boolean>,
): Promise<boolean> {
  const hold = await readHold(service.chain, pending);
  if (hold === null) return true;
  const { source, destination, mint, confidential } = hold;
  return moves({ source, destination, mint, confidential });
}
