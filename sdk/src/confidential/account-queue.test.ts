import { describe, expect, it } from "vitest";
import { runExclusive } from "./account-queue";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("per-account queue", () => {
  it("Given tasks for one account, then they run one at a time in order, even after a failure", async () => {
    const scope = {};
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      runExclusive(scope, "A", task("1")),
      runExclusive(scope, "A", task("2", true)),
      runExclusive(scope, "A", task("3")),
    ]);
    expect(log).toEqual(["1 start", "1 end", "2 start", "2 end", "3 start", "3 end"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("Given tasks for different accounts or scopes, then they overlap", async () => {
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    const scope = {};
    await Promise.all([
      runExclusive(scope, "A", task("A")),
      runExclusive(scope, "B", task("B")),
      runExclusive({}, "A", task("A'")),
    ]);
    expect(log.slice(0, 3).every((entry) => entry.endsWith("start"))).toBe(true);
  });
});
