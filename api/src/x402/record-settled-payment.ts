/**
 * What a landed payment leaves in the records, written by the settle request and by the recovery of
 * a settle whose process died (recover-settlements.ts) alike: a wallet's payment as the merchant's
 * received transfer (record-received-payment.ts); a cpay agent's as the settlement of the agent's own
 * transfer (its id is in the `agent_transfer` it signed), which the indexer records. Either way the
 * claim ends `settled` only if it is still `sending`, so recording twice writes once.
 */
import type { AccountRow } from "@cpay/ledger";
import { idFromBytes } from "@cpay/ledger/ids";
import { getAgentTransferInstructionDataDecoder } from "@cpay/sdk";
import type { ReadonlyUint8Array } from "@solana/kit";
import type { ServiceContext } from "../core/service-context";
import type { LandedPayment } from "./landed-payment";
import type { PaymentShapeName } from "./payment-shapes";
import { recordReceivedPayment } from "./record-received-payment";
import { finishSettlementIn } from "./settlement-claims";

/** Records the landed payment (see the module doc); returns the transfer id. */
export async function recordSettledPayment(
  service: ServiceContext,
  input: {
    readonly merchant: AccountRow;
    readonly messageHash: string;
    readonly shape: PaymentShapeName;
    /** The data of the payment's transfer instruction (instruction 2). */
    readonly transferData: ReadonlyUint8Array;
    readonly landed: LandedPayment;
  },
): Promise<string> {
  const { merchant, messageHash, landed } = input;
  if (input.shape === "transfer_checked") {
    return recordReceivedPayment(service, { merchant, messageHash, landed });
  }
  const transferId = idFromBytes(
    "tr",
    Uint8Array.from(getAgentTransferInstructionDataDecoder().decode(input.transferData).transferId),
  );
  await service.db.transaction((tx) =>
    finishSettlementIn(service, tx, messageHash, { status: "settled", transferId }),
  );
  return transferId;
}
