/**
 * The suites' client for the localnet process's test-cluster-only methods (localnet/README.md):
 * clock moves a validator would never allow, spoken over the same JSON-RPC endpoint the service
 * uses. Only tests call these; the API, the indexer and the SDK never do.
 */
export interface ClockPosition {
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
}

export interface LocalnetTestClient {
  advanceSlots(count: number): Promise<ClockPosition>;
  warpTime(seconds: number | bigint): Promise<ClockPosition>;
  setUnixTime(seconds: number | bigint): Promise<ClockPosition>;
  clock(): Promise<ClockPosition>;
}

let nextId = 1;

async function call(rpcUrl: string, method: string, params: readonly unknown[]): Promise<ClockPosition> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const body = (await response.json()) as {
    result?: { slot: number; unixTimestamp: number };
    error?: { code: number; message: string };
  };
  if (body.error !== undefined || body.result === undefined) {
    throw new Error(`${method} failed: ${body.error?.code} ${body.error?.message ?? "no result"}`);
  }
  return { slot: BigInt(body.result.slot), unixTimestamp: BigInt(body.result.unixTimestamp) };
}

export function localnetTestClient(rpcUrl: () => string): LocalnetTestClient {
  return {
    advanceSlots: (count) => call(rpcUrl(), "localnet_advanceSlots", [count]),
    warpTime: (seconds) => call(rpcUrl(), "localnet_warpTime", [Number(seconds)]),
    setUnixTime: (seconds) => call(rpcUrl(), "localnet_setUnixTime", [Number(seconds)]),
    clock: () => call(rpcUrl(), "localnet_clock", []),
  };
}
