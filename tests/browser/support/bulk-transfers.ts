/**
 * A page of sealed transfers, made cheaply: public transfers over /v1 with the owner's key (no
 * proofs to make; the service seals their details like a confidential transfer's, so the page opens
 * each envelope the same way). Each has its own 7-digit base-unit amount, so the network recorder
 * can watch every one without false alarms.
 */
import { v1 } from "./admin-client";
import { usdgDecimal } from "./plaintext-forms";

export const BULK_TRANSFERS = 100;
/** 1.000003 .. 1.990300 USDG: about 150 USDG in all, none of the amounts used elsewhere. */
export const bulkUnits = (index: number): bigint => 1_000_003n + BigInt(index) * 10_003n;

export interface MadeTransfer {
  readonly id: string;
  readonly amount: string;
}

/** Sends the BULK_TRANSFERS transfers `inFlight` at a time; their ids and amounts. */
export async function sendBulkTransfers(
  baseUrl: string,
  apiKey: string,
  to: string,
  inFlight = 8,
): Promise<MadeTransfer[]> {
  const made: MadeTransfer[] = [];
  let next = 0;
  const sender = async () => {
    while (next < BULK_TRANSFERS) {
      const amount = usdgDecimal(bulkUnits(next++));
      const sent = await v1(baseUrl, apiKey, "POST", "/v1/transfers", { to, amount, confidential: false });
      if (sent.status !== 201) throw new Error(`bulk transfer: ${sent.status} ${JSON.stringify(sent.body)}`);
      made.push({ id: sent.body.transfer_id as string, amount });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  return made;
}
