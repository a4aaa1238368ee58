import { describe, expect, it } from "vitest";
import { ChainUnavailable } from "./chain-types";
import { RpcResponseError } from "./rpc-errors";
import { EndpointBusy, MIN_CONTEXT_SLOT_NOT_REACHED, withRetry } from "./rpc-retry";

/** An attempt failing with `failures` in turn, then answering "ok"; counts its calls. */
function failingThen(failures: unknown[]) {
  const calls = { count: 0 };
  const attempt = async () => {
    const failure = failures[calls.count++];
    if (failure !== undefined) throw failure;
    return "ok";
  };
  return { attempt, calls };
}

describe("retrying a busy RPC endpoint", () => {
  it("Given 429, 503 and a node behind minContextSlot, When retried, Then it answers after backing off, with full jitter under the doubling ceiling", async () => {
    const waits: number[] = [];
    const { attempt, calls } = failingThen([
      new EndpointBusy("HTTP 429", 0),
      new EndpointBusy("HTTP 503", 0),
      new RpcResponseError(MIN_CONTEXT_SLOT_NOT_REACHED, "behind", null),
    ]);
    const answer = await withRetry(attempt, {
      baseMs: 100,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(answer).toBe("ok");
    expect(calls.count).toBe(4);
    expect(waits).toEqual([50, 100, 200]);
  });

  it("Given a Retry-After, When retried, Then the wait is at least that long", async () => {
    const waits: number[] = [];
    const { attempt } = failingThen([new EndpointBusy("HTTP 429", 1500)]);
    await withRetry(attempt, { random: () => 0, sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([1500]);
  });

  it("Given an endpoint busy past the budget, Then ChainUnavailable, after a bounded number of tries", async () => {
    const busy = Array.from({ length: 1000 }, () => new EndpointBusy("HTTP 503", 0));
    const { attempt, calls } = failingThen(busy);
    const error = await withRetry(attempt, { budgetMs: 300, baseMs: 10, capMs: 40 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnavailable);
    expect(calls.count).toBeGreaterThan(1);
    expect(calls.count).toBeLessThan(1000);
  });

  it("Given a node behind past the budget, Then ChainUnavailable carrying the -32016 answer", async () => {
    const behind = Array.from({ length: 1000 }, () => new RpcResponseError(-32016, "behind", null));
    const { attempt } = failingThen(behind);
    const error = await withRetry(attempt, { budgetMs: 100, baseMs: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnavailable);
    expect((error as Error).cause).toBeInstanceOf(RpcResponseError);
  });

  it("Given a refusal, an unreachable node or another JSON-RPC error, Then it is thrown at once", async () => {
    for (const failure of [
      new ChainUnavailable("connection refused"),
      new RpcResponseError(-32005, "Node is unhealthy", null),
      new Error("bad"),
    ]) {
      const { attempt, calls } = failingThen([failure]);
      await expect(withRetry(attempt)).rejects.toBe(failure);
      expect(calls.count).toBe(1);
    }
  });
});
