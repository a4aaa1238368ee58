import { createEmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";
import { describe, expect, it } from "vitest";
import { clusterUnixTime, utcDayIndex } from "./cluster-clock";

describe("cluster clock", () => {
  it("Given an embedded cluster at a set time, When its Clock sysvar is read, Then it is the cluster's unix time", async () => {
    const start = BigInt(Date.UTC(2026, 2, 10, 23, 59, 59) / 1000);
    const cluster = await createEmbeddedCluster({ slotMs: 0, unixTime: start, programPath: null });
    const chain = inProcessChain(cluster);
    expect(await clusterUnixTime(chain)).toBe(cluster.clock.unixTimestamp);
    cluster.clock.setUnixTime(start + 1n);
    expect(await clusterUnixTime(chain)).toBe(start + 1n);
    expect(utcDayIndex(start + 1n)).toBe(utcDayIndex(start) + 1n);
  });

  it("Given timestamps around the epoch, Then the day rounds toward minus infinity like div_euclid", () => {
    expect(utcDayIndex(0n)).toBe(0n);
    expect(utcDayIndex(86_399n)).toBe(0n);
    expect(utcDayIndex(86_400n)).toBe(1n);
    expect(utcDayIndex(-1n)).toBe(-1n);
    expect(utcDayIndex(-86_400n)).toBe(-1n);
    expect(utcDayIndex(-86_401n)).toBe(-2n);
  });
});
