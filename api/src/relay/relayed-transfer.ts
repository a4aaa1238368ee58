/**
 * What a relayed transaction did, read from the program's events in its logs, in the shape
 * `POST /v1/transfers` answers: executed (`pending` until the indexer sees it confirmed) or held
 * (`approval` with the hold's derived `tx_...` id, which the indexer's record will carry too).
 * The records themselves are the indexer's to write, as for any transfer it finds on chain.
 */
import { parseAgentPolicyEvents } from "@cpay/sdk";
import { decodeHold } from "@cpay/sdk/agent-confidential";
import type { TTransfer } from "@cpay/sdk/api";
import { address } from "@solana/kit";
import { getTokenDecoder } from "@solana-program/token-2022";
import { eq } from "drizzle-orm";
import { holdTransactionId, idFromBytes } from "../ids";
import type { ServiceContext } from "../service-context";
import { isoOfUnixSeconds } from "../transfers/transfer-transitions";

/** The transfer `signature` made or held for `agentPda`, or null when it carries none. */
export async function relayedTransfer(
  service: ServiceContext,
  signature: string,
  agentPda: string,
): Promise<TTransfer | null> {
  const landed = service.cluster.getTransaction(signature);
  if (landed === null) return null;
  const programAddress = address(service.cluster.programId);
  const createdAt = isoOfUnixSeconds(landed.blockTime);
  for (const event of parseAgentPolicyEvents(landed.logs, { programAddress }).events) {
    if (
      (event.name === "TransferExecuted" || event.name === "ConfidentialTransferExecuted") &&
      event.data.agent === agentPda &&
      !event.data.fromHold
    ) {
      return {
        transfer_id: idFromBytes("tr", Uint8Array.from(event.data.transferId)),
        status: "pending",
        to: await recipientName(service, ownerOfTokenAccount(service, event.data.destination)),
        confidential: event.name === "ConfidentialTransferExecuted",
        tx_signature: signature,
        created_at: createdAt,
        approval: null,
      };
    }
    if (event.name === "TransactionHeld" && event.data.agent === agentPda) {
      const account = service.cluster.getAccount(event.data.pending);
      const hold = account === null ? null : decodeHold(event.data.pending, account.data);
      return {
        transfer_id: idFromBytes("tr", Uint8Array.from(event.data.transferId)),
        status: "pending",
        to:
          hold?.recipientHandle != null
            ? `@${hold.recipientHandle}`
            : await recipientName(
                service,
                hold === null ? null : ownerOfTokenAccount(service, hold.destination),
              ),
        confidential: hold?.confidential ?? false,
        tx_signature: signature,
        created_at: createdAt,
        approval: {
          transaction_id: holdTransactionId(event.data.pending),
          expires_at: isoOfUnixSeconds(event.data.expiresAt),
        },
      };
    }
  }
  return null;
}

function ownerOfTokenAccount(service: ServiceContext, tokenAccount: string): string | null {
  const account = service.cluster.getAccount(tokenAccount);
  if (account === null) return null;
  try {
    return getTokenDecoder().decode(account.data).owner;
  } catch {
    return null;
  }
}

/** A service account's handle for a wallet/PDA, else the address (`unknown` if there is none). */
async function recipientName(service: ServiceContext, owner: string | null): Promise<string> {
  if (owner === null) return "unknown";
  const { accounts } = service.db.tables;
  const [account] = await service.db.read((db) =>
    db.select({ handle: accounts.handle }).from(accounts).where(eq(accounts.publicKey, owner)),
  );
  return account?.handle ?? owner;
}
