/**
 * A wallet's settled payment as the merchant's record: a transfer row `confirmed`, paid to the
 * merchant's address (so `GET /v1/transfers` shows it to the merchant with `direction: "received"`,
 * visible-transfers.ts), and its `transfer.confirmed` with `direction: "received"` to the merchant's
 * webhooks (the ledger's own `receivedTransferFact`), with the settlement's end, in one database
 * transaction. Its facts are the landed transaction's: the signature, the transfer's authority (the
 * payer, by its handle if it is a service account, else its address) and mint. No amount is stored,
 * as for every transfer.
 *
 * The payer is no account of the service, so the row's `account_id` (the sender's) is the payer's
 * address: it names no account, so no account sees the row as sent. Its id is drawn from the
 * payment's message hash: recording one payment twice is refused by the primary key, and a payment
 * whose claim is no longer `sending` (recorded already, by the request or the recovery) is not
 * recorded again. A cpay
 * agent's payment needs none of this: the indexer records the agent's own transfer, sent for the
 * agent and received for the merchant, as for any transfer an agent signs.
 */
import {
  type AccountRow,
  nameOfAddress,
  receivedTransferFact,
  recordEvent,
  submittingTransferRow,
} from "@cpay/ledger";
import { idFromBytes } from "@cpay/ledger/ids";
import type { ServiceContext } from "../core/service-context";
import type { LandedPayment } from "./landed-payment";
import { finishSettlementIn } from "./settlement-claims";

/** Records the landed wallet payment for `merchant` (see the module doc); returns the transfer id. */
export async function recordReceivedPayment(
  service: ServiceContext,
  input: {
    readonly merchant: AccountRow;
    readonly messageHash: string;
    readonly landed: LandedPayment;
  },
): Promise<string> {
  const { merchant, messageHash, landed } = input;
  const id = idFromBytes("tr", Uint8Array.from(Buffer.from(messageHash, "hex").subarray(0, 16)));
  const now = new Date(service.clock()).toISOString();
  const mint = landed.transfer.mint as string;
  await service.db.transaction(async (tx) => {
    // The claim is ended first, guarded: of the request and the recovery, one writes the record.
    if (!(await finishSettlementIn(service, tx, messageHash, { status: "settled", transferId: id }))) return;
    const row = {
      ...submittingTransferRow({
        id,
        accountId: landed.transfer.authority,
        apiKeyId: null,
        fromHandle: await nameOfAddress(service, tx, landed.transfer.authority),
        to: await nameOfAddress(service, tx, merchant.publicKey),
        recipientAddress: merchant.publicKey,
        asset: mint === service.chain.usdgMint ? "USDG" : mint,
        confidential: false,
        usageIncrement: null,
        sealedDetails: null,
        createdAt: now,
      }),
      status: "confirmed" as const,
      phase: "settled" as const,
      txSignature: landed.record.signature,
      signatures: JSON.stringify([landed.record.signature]),
      confirmedAt: now,
    };
    await tx.insert(service.db.tables.transfers).values(row);
    await recordEvent(service, tx, receivedTransferFact(row, merchant));
  });
  return id;
}
