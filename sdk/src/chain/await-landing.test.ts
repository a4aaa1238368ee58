import { describe, expect, it } from "vitest";
import { awaitLanding } from "./await-landing";
import type { ChainPort } from "./chain-port";
import type { SignatureStatus } from "./chain-types";

const LANDED: SignatureStatus = { slot: 5n, confirmations: 0, confirmationStatus: "processed", err: null };

/** A chain whose status and blockhash validity follow the scripts, one entry per read. */
function scripted(
  statuses: (SignatureStatus | null)[],
  valid: boolean[],
  sent: Uint8Array[] = [],
): ChainPort {
  let statusReads = 0;
  let validityReads = 0;
  return {
    getSignatureStatus: async () => statuses[Math.min(statusReads++, statuses.length - 1)] ?? null,
    isBlockhashValid: async () => valid[Math.min(validityReads++, valid.length - 1)] ?? false,
    sendTransaction: async (wire: Uint8Array) => {
      sent.push(wire);
      return "sig";
    },
  } as unknown as ChainPort;
}

describe("waiting for a sent transaction to land", () => {
  it("Given the status appears on the third read, Then it is returned", async () => {
    const chain = scripted([null, null, LANDED], [true]);
    expect(await awaitLanding(chain, "sig", "hash", { pollMs: 1 })).toEqual(LANDED);
  });

  it("Given the blockhash expires and the status never appears, Then the answer is null (it can never land)", async () => {
    const chain = scripted([null], [true, false]);
    expect(await awaitLanding(chain, "sig", "hash", { pollMs: 1 })).toBeNull();
  });

  it("Given it lands between the status read and the expiry read, Then the final status read still finds it", async () => {
    const chain = scripted([null, LANDED], [false]);
    expect(await awaitLanding(chain, "sig", "hash", { pollMs: 1 })).toEqual(LANDED);
  });

  it("Given the wire and a status that appears late, Then the same bytes are sent again while waiting, never other bytes", async () => {
    const sent: Uint8Array[] = [];
    const wire = Uint8Array.of(1, 2, 3);
    const chain = scripted([null, null, null, null, LANDED], [true], sent);
    expect(await awaitLanding(chain, "sig", "hash", { pollMs: 1, wire, resendMs: 0 })).toEqual(LANDED);
    expect(sent.length).toBeGreaterThan(0);
    for (const bytes of sent) expect(bytes).toBe(wire);
  });

  it("Given a re-send that fails, Then the wait goes on and the status decides", async () => {
    const chain = scripted([null, null, LANDED], [true]);
    (chain as { sendTransaction: unknown }).sendTransaction = async () => {
      throw new Error("refused");
    };
    expect(
      await awaitLanding(chain, "sig", "hash", { pollMs: 1, wire: Uint8Array.of(1), resendMs: 0 }),
    ).toEqual(LANDED);
  });
});
