import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../core/service-context";
import { lastReserveReading, readReserveBalance } from "./reserve-balance-watch";
import { reserveMetricsText } from "./reserve-metrics";

/** A context with only what the watch reads: the reserve's balance, the warning line, a clock, a log. */
function fakeService(warnLamports: bigint) {
  const state = {
    lamports: 0n,
    now: 1_000_000,
    logs: [] as { level: string; msg: string; fields: object }[],
  };
  const log = (level: string) => (fields: object, msg: string) => state.logs.push({ level, msg, fields });
  const service = {
    environment: "test",
    config: { environments: { test: { reserveWarnLamports: warnLamports }, live: null } },
    feePayer: { address: "Reserve1111111111111111111111111111111111111" },
    chain: { getAccount: async () => ({ lamports: state.lamports }) },
    clock: () => state.now,
    logger: { warn: log("warn"), info: log("info") },
  } as unknown as ServiceContext;
  return { service, state };
}

describe("watching the fee reserve's balance", () => {
  it("warns when it falls below the line, again only every 10 minutes while low, and says when it is back", async () => {
    const { service, state } = fakeService(1_000n);
    state.lamports = 5_000n;
    await readReserveBalance(service);
    expect(state.logs).toEqual([]);

    state.lamports = 999n;
    await readReserveBalance(service);
    expect(state.logs.map((log) => log.level)).toEqual(["warn"]);
    expect(state.logs[0]?.fields).toMatchObject({ lamports: "999", warn_below_lamports: "1000" });

    state.now += 30_000;
    await readReserveBalance(service);
    expect(state.logs).toHaveLength(1);

    state.now += 10 * 60_000;
    await readReserveBalance(service);
    expect(state.logs.map((log) => log.level)).toEqual(["warn", "warn"]);

    state.lamports = 1_000n;
    await readReserveBalance(service);
    expect(state.logs.map((log) => log.level)).toEqual(["warn", "warn", "info"]);
    expect(lastReserveReading(service)).toMatchObject({ lamports: 1_000n, low: false });
  });

  it("renders the last reading as Prometheus gauges, nothing for a reserve not read yet", async () => {
    const { service, state } = fakeService(1_000n);
    expect(reserveMetricsText({ test: service, live: null }, state.now)).not.toContain(
      "cpay_fee_reserve_lamports{",
    );
    state.lamports = 42n;
    await readReserveBalance(service);
    const text = reserveMetricsText({ test: service, live: null }, state.now + 2_500);
    expect(text).toContain('cpay_fee_reserve_lamports{environment="test"} 42\n');
    expect(text).toContain('cpay_fee_reserve_warn_lamports{environment="test"} 1000\n');
    expect(text).toContain('cpay_fee_reserve_low{environment="test"} 1\n');
    expect(text).toContain('cpay_fee_reserve_reading_age_seconds{environment="test"} 2.500\n');
    expect(text).toContain("# TYPE cpay_fee_reserve_low gauge\n");
  });
});
