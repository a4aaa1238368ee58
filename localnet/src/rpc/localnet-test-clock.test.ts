/**
 * The localnet's test-cluster-only clock methods: they move the served cluster's clock (slots and
 * the Clock sysvar's time), validate their parameters like every method, and are unknown (-32601)
 * on a server that was not given the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedCluster, type EmbeddedCluster } from "../cluster/index";
import { type Localnet, startLocalnet } from "./start-localnet";

let cluster: EmbeddedCluster;
let withClock: Localnet;
let withoutClock: Localnet;

beforeAll(async () => {
  // A manual clock: every slot comes from the calls under test.
  cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null });
  withClock = await startLocalnet({ cluster, testClock: cluster.clock, rpcPort: 0, wsPort: 0 });
  withoutClock = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
});

afterAll(async () => {
  await withClock.close();
  await withoutClock.close();
  cluster.stop();
});

async function rpc(url: string, method: string, params: unknown[]): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe("localnet_* clock methods", () => {
  it("Given a localnet with its clock, When slots are advanced and time warped, Then the cluster's slot and Clock time move by exactly that", async () => {
    const slot = cluster.getSlot();
    const time = cluster.clock.unixTimestamp;
    const advanced = await rpc(withClock.rpcUrl, "localnet_advanceSlots", [7]);
    expect(advanced.result).toMatchObject({ slot: Number(slot + 7n) });
    expect(cluster.getSlot()).toBe(slot + 7n);
    const warped = await rpc(withClock.rpcUrl, "localnet_warpTime", [3600]);
    expect(cluster.getSlot()).toBe(slot + 7n);
    expect(cluster.clock.unixTimestamp).toBe(
      BigInt((warped.result as { unixTimestamp: number }).unixTimestamp),
    );
    expect(cluster.clock.unixTimestamp).toBeGreaterThanOrEqual(time + 3600n);
    await rpc(withClock.rpcUrl, "localnet_setUnixTime", [1_800_000_000]);
    expect(cluster.clock.unixTimestamp).toBe(1_800_000_000n);
    expect((await rpc(withClock.rpcUrl, "localnet_clock", [])).result).toEqual({
      slot: Number(slot + 7n),
      unixTimestamp: 1_800_000_000,
    });
  });

  it("Given bad parameters, When the methods are called, Then they answer -32602 and move nothing", async () => {
    const slot = cluster.getSlot();
    for (const [method, params] of [
      ["localnet_advanceSlots", [0]],
      ["localnet_advanceSlots", [100_001]],
      ["localnet_advanceSlots", ["3"]],
      ["localnet_warpTime", [-1]],
      ["localnet_warpTime", []],
      ["localnet_clock", [1]],
    ] as const) {
      const answer = await rpc(withClock.rpcUrl, method, [...params]);
      expect((answer.error as { code: number }).code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
    }
    expect(cluster.getSlot()).toBe(slot);
  });

  it("Given a localnet started without the clock, When a localnet_* method is called, Then it is unknown (-32601)", async () => {
    const answer = await rpc(withoutClock.rpcUrl, "localnet_advanceSlots", [1]);
    expect((answer.error as { code: number }).code).toBe(-32601);
  });
});
