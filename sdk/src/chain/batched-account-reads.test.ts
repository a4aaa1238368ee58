import { describe, expect, it } from "vitest";
import { batchingAccountReads } from "./batched-account-reads";
import type { ChainPort } from "./chain-port";
import type { AccountRecord } from "./chain-types";

/** A port answering from `accounts`, counting what it was asked. */
function countingPort(accounts: Record<string, AccountRecord>, failing = false) {
  const asked: string[][] = [];
  const answer = (address: string) => accounts[address] ?? null;
  const chain = {
    programId: "program",
    async getAccount(address: string) {
      asked.push([address]);
      if (failing) throw new Error("unreachable");
      return answer(address);
    },
    async getMultipleAccounts(addresses: readonly string[]) {
      asked.push([...addresses]);
      if (failing) throw new Error("unreachable");
      return addresses.map(answer);
    },
  } as unknown as ChainPort;
  return { chain, asked };
}

const record = (address: string): AccountRecord =>
  ({
    address,
    lamports: 1n,
    owner: "owner",
    data: new Uint8Array(0),
    executable: false,
  }) as unknown as AccountRecord;

describe("batchingAccountReads", () => {
  it("Given reads started together, When they run, Then they are one getMultipleAccounts with each read's own answer", async () => {
    const { chain, asked } = countingPort({ a: record("a"), c: record("c") });
    const reads = batchingAccountReads(chain);
    const answers = await Promise.all([reads.getAccount("a"), reads.getAccount("b"), reads.getAccount("c")]);
    expect(answers.map((found) => found?.address ?? null)).toEqual(["a", null, "c"]);
    expect(asked).toEqual([["a", "b", "c"]]);
    // A read started later is a batch of its own, and the port's other members are the port's.
    expect((await reads.getAccount("a"))?.address).toBe("a");
    expect(asked).toEqual([["a", "b", "c"], ["a"]]);
    expect(reads.programId).toBe("program");
  });

  it("Given the cluster unreachable, When reads run together, Then each fails with its error", async () => {
    const reads = batchingAccountReads(countingPort({}, true).chain);
    const outcomes = await Promise.allSettled([reads.getAccount("a"), reads.getAccount("b")]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
  });
});
