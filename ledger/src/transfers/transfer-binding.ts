/**
 * Whether what the chain says happened is the transfer a row describes. A transfer id is 16 bytes
 * anyone can copy: `transfer_record` is permissionless (any signer, any token accounts of a mint)
 * and a self-custody agent signs its own instructions, so an event carrying a row's id proves
 * nothing by itself. An event moves a row only when its signer, token accounts and mint are the
 * row's:
 * - `record` (`ServiceTransferRecorded`): counts as funds moved only for a personal or business
 *   account's row, signed by that account's wallet (custodial: only the service signs with it) from
 *   its own token account. The program derives the Receipt from the signer, so the receipt created
 *   is `["receipt", wallet, transfer_id]`. An agent's record never counts: it lands with a hold
 *   just as with an execution; the agent's own event says which.
 * - `agent` (`TransferExecuted`, `ConfidentialTransferExecuted`, `TransactionHeld`): emitted by the
 *   program for the agent PDA it checked (the program also checks the source is the PDA's), so the
 *   PDA must be the row's account.
 * - the destination is the row's recipient (its token account, its associated token account, or a
 *   token account the chain says it owns), and the mint and confidentiality are the row's.
 */
import { findTokenAccount } from "@cpay/sdk/confidential";
import { isAddress } from "@solana/kit";
import type { AccountRow, TransferRow } from "../db/rows";

/** What one program event says moved (or was held), with the destination's owner as read. */
export interface ObservedTransfer {
  readonly by: "record" | "agent";
  /** The record's signer, or the agent PDA. */
  readonly sender: string;
  /** The source token account; null where the event names none (a hold, checked by the program). */
  readonly source: string | null;
  readonly destination: string;
  /** The wallet (or PDA) owning `destination`, as the chain says; null when unknown. */
  readonly destinationOwner: string | null;
  readonly mint: string;
  readonly confidential: boolean;
}

/** The mint of a row's asset: `USDG` is the cluster's USDG mint, any other asset is its mint address. */
export function mintOfTransfer(row: TransferRow, usdgMint: string): string {
  return row.asset === "USDG" ? usdgMint : row.asset;
}

/**
 * True when `observed` is the transfer `row` describes, sent by `sender` (the row's account; see
 * the module doc for the rules).
 */
export async function isTransferOf(
  row: TransferRow,
  sender: AccountRow,
  usdgMint: string,
  observed: ObservedTransfer,
): Promise<boolean> {
  const mint = mintOfTransfer(row, usdgMint);
  if (sender.id !== row.accountId || observed.sender !== sender.publicKey) return false;
  if (observed.mint !== mint || observed.confidential !== row.confidential) return false;
  if (observed.by === "record") {
    if (sender.type === "agent") return false;
    if (observed.source !== (await findTokenAccount(sender.publicKey, mint))) return false;
  } else if (sender.type !== "agent") {
    return false;
  }
  return isDestinationOf(row.recipientAddress, mint, observed);
}

/** The destination is the recipient's: named by the row, its associated account, or owned by it. */
export async function isDestinationOf(
  recipientAddress: string,
  mint: string,
  observed: Pick<ObservedTransfer, "destination" | "destinationOwner">,
): Promise<boolean> {
  if (observed.destination === recipientAddress || observed.destinationOwner === recipientAddress) {
    return true;
  }
  return (
    isAddress(recipientAddress) && observed.destination === (await findTokenAccount(recipientAddress, mint))
  );
}
