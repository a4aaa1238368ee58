/**
 * The chain a suite's services run against: the embedded cluster in the suite's process (default),
 * or with CPAY_TEST_CHAIN=rpc the localnet as its own process (tests/support/localnet-process.ts),
 * which each service reaches through its manifest over JSON-RPC + PubSub exactly as a validator.
 * Either way the suite gets connections for its services, a chain port of its own, clock moves
 * (the simulator's, or the localnet's test-only `localnet_*` methods), a clock standing at 12:00
 * UTC of its day when the suite gets it (midday.ts) and a stop that leaves no
 * child behind.
 */

import { type KeyFileConnection, localnetConnection } from "@cpay/api";
import {
  createEmbeddedCluster,
  type EmbeddedCluster,
  inProcessChain,
  type UsdgMintSettings,
} from "@cpay/localnet/cluster";
import type { ChainPort } from "@cpay/sdk/chain";
import { inProcessConnection } from "./in-process-connection";
import { connectToLocalnet } from "./localnet-chain";
import { type LocalnetProcess, startLocalnetProcess } from "./localnet-process";
import { type ClockPosition, type LocalnetTestClient, localnetTestClient } from "./localnet-test-client";
import { startAtMidday } from "./midday";

/** Where a world's chain runs: CPAY_TEST_CHAIN=rpc for the localnet process, else in process. */
export type TestChainMode = "in-process" | "rpc";

export function testChainMode(): TestChainMode {
  const given = process.env.CPAY_TEST_CHAIN;
  if (given === undefined || given === "" || given === "in-process") return "in-process";
  if (given === "rpc") return "rpc";
  throw new Error(`CPAY_TEST_CHAIN must be "rpc" or "in-process", got ${given}`);
}

export interface TestChain {
  readonly mode: TestChainMode;
  /** A new service connection onto it (each service its own, as on a real cluster). */
  connect(): Promise<KeyFileConnection>;
  readonly cluster: EmbeddedCluster | null;
  readonly localnet: LocalnetProcess | null;
  readonly testClock: LocalnetTestClient;
  openChain(): Promise<ChainPort>;
  stop(): Promise<void>;
}

/** How the chain's USDG mint treats confidential accounts, in either mode (default: auto-approve, no auditor). */
export interface TestChainOptions {
  readonly usdgMint?: UsdgMintSettings;
}

export async function startTestChain(
  mode: TestChainMode,
  slotMs: number,
  options: TestChainOptions = {},
): Promise<TestChain> {
  const chain = await startChain(mode, slotMs, options);
  try {
    await startAtMidday(chain.testClock);
  } catch (error) {
    await chain.stop();
    throw error;
  }
  return chain;
}

async function startChain(
  mode: TestChainMode,
  slotMs: number,
  options: TestChainOptions,
): Promise<TestChain> {
  if (mode === "rpc") {
    const localnet = await startLocalnetProcess({ slotMs, env: usdgMintEnv(options.usdgMint) });
    stopOnExit(localnet);
    return {
      mode,
      connect: () => localnetConnection(localnet.manifestPath),
      cluster: null,
      localnet,
      testClock: localnetTestClient(localnet.rpcUrl),
      openChain: () => connectToLocalnet(localnet),
      stop: async () => {
        running.delete(localnet);
        await localnet.remove();
      },
    };
  }
  const cluster = await createEmbeddedCluster({ slotMs, usdgMint: options.usdgMint });
  const position = (): ClockPosition => ({
    slot: cluster.getSlot(),
    unixTimestamp: cluster.clock.unixTimestamp,
  });
  return {
    mode,
    connect: () => inProcessConnection(cluster),
    cluster,
    localnet: null,
    testClock: {
      advanceSlots: async (count) => {
        cluster.clock.advance(count);
        return position();
      },
      warpTime: async (seconds) => {
        cluster.clock.warpTime(seconds);
        return position();
      },
      setUnixTime: async (seconds) => {
        cluster.clock.setUnixTime(seconds);
        return position();
      },
      clock: async () => position(),
    },
    openChain: async () => inProcessChain(cluster),
    stop: async () => cluster.stop(),
  };
}

/** The localnet process's settings for `settings` (localnet/src/usdg-mint-env.ts). */
function usdgMintEnv(settings: UsdgMintSettings | undefined): NodeJS.ProcessEnv {
  if (settings === undefined) return {};
  const auditor = settings.auditorElgamalPubkey;
  return {
    LOCALNET_USDG_AUTO_APPROVE: settings.autoApproveNewAccounts ? "1" : "0",
    LOCALNET_USDG_AUDITOR: auditor === null ? "" : Buffer.from(auditor).toString("base64"),
  };
}

/**
 * Localnet processes of this test file still running: a file whose afterAll never ran (a failed
 * beforeAll, a timeout) must not leave its child behind, so the worker kills them on its way out.
 */
const running = new Set<LocalnetProcess>();
let exitHookInstalled = false;

function stopOnExit(localnet: LocalnetProcess): void {
  running.add(localnet);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of running) child.killNow();
  });
}
