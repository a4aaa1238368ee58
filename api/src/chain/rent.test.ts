import { createEmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";
import { describe, expect, it } from "vitest";
import { readRentExemptMinimum } from "./rent";

describe("the rent schedule read from the Rent sysvar", () => {
  it("Given a cluster, When the schedule is read once, Then every size costs what the cluster itself answers", async () => {
    const cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null });
    try {
      const chain = inProcessChain(cluster);
      const rent = await readRentExemptMinimum(chain);
      // Empty, a token account, a confidential one, a proof context, a staging buffer's range.
      for (const space of [0, 1, 165, 295, 1_420, 10_240, 65_536]) {
        expect(rent(space)).toBe(await chain.minimumBalanceForRentExemption(space));
      }
    } finally {
      cluster.stop();
    }
  });

  it("Given a chain without a Rent sysvar, Then reading the schedule fails loudly", async () => {
    const chain = { getAccount: async () => null } as unknown as Parameters<typeof readRentExemptMinimum>[0];
    await expect(readRentExemptMinimum(chain)).rejects.toThrow("no readable Rent sysvar");
  });
});
