import { describe, expect, it } from "vitest";
import type { ChainPort } from "./chain-port";
import type { SignatureStatus } from "./chain-types";
import { proveNeverLanded } from "./never-landed-proof";

const LAST_VALID = 100n;
const KNOWN: SignatureStatus = { slot: 5n, confirmations: null, confirmationStatus: "finalized", err: null };
const expired = { signature: "sig", lastValidBlockHeight: LAST_VALID };

/** A chain whose finalized heights follow `finalized` (one per read); every read is logged in order. */
function scripted(finalized: bigint[], status: SignatureStatus | null = null) {
  const log: string[] = [];
  let reads = 0;
  const chain = {
    getBlockHeight: async (commitment?: string) => {
      log.push(`height:${commitment}`);
      return finalized[Math.min(reads++, finalized.length - 1)] ?? 0n;
    },
    getSlot: async (commitment?: string) => {
      log.push(`slot:${commitment}`);
      return 1n;
    },
    getSignatureStatus: async () => {
      log.push("status");
      return status;
    },
  } as unknown as ChainPort;
  return { chain, log };
}

describe("the finalized proof that a transaction can never land", () => {
  it("Given the finalized height reaches the last valid height, then passes it, Then the status is read only after it passed, and unknown proves it", async () => {
    const { chain, log } = scripted([LAST_VALID - 1n, LAST_VALID, LAST_VALID + 1n]);
    expect(await proveNeverLanded(chain, expired, { pollMs: 1 })).toBe("never_landed");
    // Then the finalized slot is read before the status, so the status comes from at or above it
    expect(log).toEqual([
      "height:finalized",
      "height:finalized",
      "height:finalized",
      "slot:finalized",
      "status",
    ]);
  });

  it("Given the finalized height passed but the cluster knows the signature, Then it is not proved: landed", async () => {
    const { chain } = scripted([LAST_VALID + 1n], KNOWN);
    expect(await proveNeverLanded(chain, expired, { pollMs: 1 })).toBe("landed");
  });

  it("Given the finalized height never passes within the wait, Then it is undecided and the status is never read", async () => {
    const { chain, log } = scripted([LAST_VALID]);
    expect(await proveNeverLanded(chain, expired, { pollMs: 1, timeoutMs: 20 })).toBe("undecided");
    expect(log).not.toContain("status");
  });
});
