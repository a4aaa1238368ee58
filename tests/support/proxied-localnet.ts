/**
 * The fault proxy's own suites start from this: an embedded cluster with 50 ms slots, the in-process
 * localnet serving it on free ports and the fault proxy (seeded with `seed`) in front of it, one for
 * the suite's tests (shared-set-up.ts); the proxy's faults are cleared before each test, and all
 * three stop after the last, newest first.
 */
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import { type Localnet, startLocalnet } from "@cpay/localnet/rpc";
import { beforeEach } from "vitest";
import { type FaultProxy, startFaultProxy } from "./fault-proxy";
import { perSuite } from "./shared-set-up";
import { undoStack } from "./undo-stack";

export interface ProxiedLocalnet {
  readonly cluster: EmbeddedCluster;
  readonly localnet: Localnet;
  readonly proxy: FaultProxy;
}

export function proxiedLocalnetSuite(seed: number): ProxiedLocalnet {
  const stops = undoStack();
  const given = perSuite(
    async () => {
      try {
        const cluster = await createEmbeddedCluster({ slotMs: 50 });
        stops.add(async () => cluster.stop());
        const localnet = await startLocalnet({ cluster, rpcPort: 0, wsPort: 0 });
        stops.add(() => localnet.close());
        const proxy = await startFaultProxy(localnet, { seed });
        stops.add(() => proxy.close());
        return { cluster, localnet, proxy };
      } catch (error) {
        await stops.undo();
        throw error;
      }
    },
    () => stops.undo(),
  );
  beforeEach(() => given.proxy.clear());
  return given;
}
