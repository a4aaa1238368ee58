import { describe, expect, it } from "vitest";
import { createBlockhashQueue, MAX_PROCESSING_AGE } from "./blockhash-queue";

const entry = (height: number) => ({
  blockhash: `hash${height}`,
  slot: 1000n + BigInt(height),
  blockHeight: BigInt(height),
});

describe("the blockhash queue", () => {
  it("accepts a blockhash up to 150 blocks old and forgets it after", () => {
    // Given a queue started at genesis
    const queue = createBlockhashQueue(entry(0));
    expect(queue.lastValidBlockHeight(entry(0))).toBe(MAX_PROCESSING_AGE);

    // When 150 blocks are produced, Then genesis is still valid
    for (let h = 1; h <= 150; h++) queue.push(entry(h));
    expect(queue.lookup("hash0")).toEqual(entry(0));
    expect(queue.latest()).toEqual(entry(150));

    // When one more is produced, Then genesis is gone and block 1 is the oldest valid
    queue.push(entry(151));
    expect(queue.lookup("hash0")).toBeNull();
    expect(queue.lookup("hash1")?.blockHeight).toBe(1n);
    expect(queue.lookup("unknown")).toBeNull();
  });
});
