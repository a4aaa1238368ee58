import { describe, expect, it } from "vitest";
import type { ChainPort } from "./chain-port";
import type { SignatureStatus, TransactionRecord } from "./chain-types";
import { confirmedTransaction } from "./confirmed-transaction";

const RECORD = { signature: "sig" } as TransactionRecord;
const PROCESSED: SignatureStatus = { slot: 5n, confirmations: 0, confirmationStatus: "processed", err: null };

/** A chain that knows `sig` and serves it at `confirmed` from read `confirmedFrom` on (never when null). */
function chainConfirmingAt(confirmedFrom: number | null, known = true): ChainPort & { reads: string[] } {
  const reads: string[] = [];
  let transactionReads = 0;
  return {
    reads,
    getTransaction: async (_signature: string, commitment: string) => {
      reads.push(commitment);
      transactionReads += 1;
      return confirmedFrom !== null && transactionReads >= confirmedFrom ? RECORD : null;
    },
    getSignatureStatus: async () => (known ? PROCESSED : null),
  } as unknown as ChainPort & { reads: string[] };
}

describe("reading a landed transaction", () => {
  it("Given it is only processed at first, Then it waits until it is confirmed, and never reads at processed", async () => {
    const chain = chainConfirmingAt(3);
    expect(await confirmedTransaction(chain, "sig", { pollMs: 1 })).toBe(RECORD);
    expect(chain.reads).toEqual(["confirmed", "confirmed", "confirmed"]);
  });

  it("Given a signature the cluster does not know, Then the answer is null at once", async () => {
    expect(await confirmedTransaction(chainConfirmingAt(null, false), "sig", { pollMs: 1 })).toBeNull();
  });

  it("Given a known signature that never reaches confirmed, Then it fails after the timeout", async () => {
    await expect(
      confirmedTransaction(chainConfirmingAt(null), "sig", { pollMs: 1, timeoutMs: 20 }),
    ).rejects.toThrow("did not reach confirmed within 20 ms");
  });
});
