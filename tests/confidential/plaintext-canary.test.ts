/**
 * Plaintext canary: a transfer of a distinctive amount, then a search of everything the flow
 * produced — every landed transaction's wire bytes, logs and return data, the final account data,
 * and every value the SDK returned — for the amount's encodings. None may appear. A positive
 * control (the deposit, public by nature) proves the search finds what is there.
 */

import { applyPendingBalance, depositConfidential, transferConfidential } from "@cpay/sdk/confidential";
import { beforeAll, describe, expect, it } from "vitest";
import { usdgDecimal } from "../support/usdg-units";
import { available, twoPartiesSuite } from "./support";

const DEPOSIT = 9_000_000_000_000n;
const CANARY = 3_141_592_653_589n; // > 2^32, so both lo and hi halves carry data
const REMAINDER = DEPOSIT - CANARY;

const returned: unknown[] = [];
const given = twoPartiesSuite("alice", "bob");

beforeAll(async () => {
  const { cluster, chain, alice, bob } = given;
  await cluster.mintUsdgToOwner(alice.wallet.address, DEPOSIT);
  returned.push(
    await depositConfidential(chain, { owner: alice.wallet, mint: cluster.usdgMint, amount: DEPOSIT }),
  );
  returned.push(
    await applyPendingBalance(chain, { owner: alice.wallet, mint: cluster.usdgMint, keys: alice.keys }),
  );
  returned.push(
    await transferConfidential(chain, {
      owner: alice.wallet,
      keys: alice.keys,
      mint: cluster.usdgMint,
      recipient: bob.wallet.address,
      amount: CANARY,
    }),
  );
  returned.push(
    await applyPendingBalance(chain, { owner: bob.wallet, mint: cluster.usdgMint, keys: bob.keys }),
  );
});

function u64le(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}

/** Every byte blob and text the flow produced. */
function everything(): { blobs: Buffer[]; texts: string[] } {
  const addresses = [
    given.alice.wallet.address,
    given.bob.wallet.address,
    given.alice.tokenAccount,
    given.bob.tokenAccount,
  ];
  const signatures = new Set(
    addresses.flatMap((address) => given.cluster.getSignaturesForAddress(address).map((s) => s.signature)),
  );
  const blobs: Buffer[] = [];
  const texts: string[] = [];
  for (const signature of signatures) {
    const record = given.cluster.getTransaction(signature);
    if (record === null) throw new Error(`missing ${signature}`);
    blobs.push(Buffer.from(record.wire));
    if (record.returnData !== null) blobs.push(Buffer.from(record.returnData.data));
    texts.push(...record.logs);
  }
  for (const address of [given.alice.tokenAccount, given.bob.tokenAccount]) {
    blobs.push(Buffer.from(given.cluster.getAccount(address)?.data ?? []));
  }
  texts.push(
    JSON.stringify(returned, (_key, value) => (typeof value === "bigint" ? value.toString() : value)),
  );
  return { blobs, texts };
}

function leaks(value: bigint): string[] {
  const { blobs, texts } = everything();
  const found: string[] = [];
  if (blobs.some((blob) => blob.includes(u64le(value)))) found.push("u64 LE bytes");
  const decimal = value.toString();
  for (const [name, needle] of [
    ["decimal", decimal],
    ["ui amount", usdgDecimal(value)],
    ["hex", value.toString(16)],
  ] as const) {
    if (texts.some((text) => text.includes(needle))) found.push(name);
  }
  return found;
}

describe("plaintext canary", () => {
  it("Given the flow ran, then both sides decrypt the distinctive amount", () => {
    expect(available(given.cluster, given.bob)).toBe(CANARY);
    expect(available(given.cluster, given.alice)).toBe(REMAINDER);
  });

  it("Given the public deposit (positive control), then the search finds its u64 bytes", () => {
    expect(leaks(DEPOSIT)).toContain("u64 LE bytes");
  });

  it("Given everything the flow produced, then the transferred amount appears in no encoding", () => {
    expect(leaks(CANARY)).toEqual([]);
  });

  it("Given everything the flow produced, then the sender's remaining balance appears in no encoding", () => {
    expect(leaks(REMAINDER)).toEqual([]);
  });
});
