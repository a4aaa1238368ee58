/**
 * The index pass walks a long backlog in bounded windows: however far behind the checkpoint is, one
 * pass asks the chain for a bounded number of signature pages, and over the passes every program
 * transaction is applied exactly once, oldest first, while new transactions keep landing at the tip.
 * The chain is a fake with getSignaturesForAddress's paging rules (newest first, `before` and `until`
 * exclusive, an unknown `before` yields nothing) that counts its calls.
 */
import {
  createIndexWalk,
  type IndexerChain,
  type ProgramSignature,
  readCheckpoint,
  runIndexPass,
} from "@cpay/indexer";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase } from "../support/api-database";
import { signaturePage } from "./support/signature-page";

/** getSignaturesForAddress's page maximum. */
const PAGE = 1000;
/** The most signature requests one pass may make, whatever the backlog (a window and its probe). */
const PAGES_PER_PASS_CEILING = 6;

interface FakeChain extends IndexerChain {
  /** Lands `count` more program transactions at the tip (every seventh one failed). */
  land(count: number): void;
  /** Every landed signature, oldest first. */
  readonly history: readonly string[];
  /** signaturesForProgram calls since the last `resetCounts`. */
  readonly pages: number;
  /** How often each signature's transaction was fetched. */
  readonly fetched: ReadonlyMap<string, number>;
  /** Starts counting signature pages from zero. */
  resetCounts(): void;
}

function fakeChain(): FakeChain {
  const oldestFirst: ProgramSignature[] = [];
  const fetched = new Map<string, number>();
  let pages = 0;
  return {
    programId: "Vote111111111111111111111111111111111111111",
    usdgMint: "So11111111111111111111111111111111111111112",
    land(count) {
      for (let i = 0; i < count; i += 1) {
        const n = oldestFirst.length;
        oldestFirst.push({
          signature: `sig-${n}`,
          // A few transactions per slot, so windows also end inside a slot.
          slot: 100n + BigInt(Math.floor(n / 3)),
          err: n % 7 === 6 ? { InstructionError: [0, { Custom: 6001 }] } : null,
        });
      }
    },
    get history() {
      return oldestFirst.map((entry) => entry.signature);
    },
    get pages() {
      return pages;
    },
    fetched,
    resetCounts() {
      pages = 0;
    },
    async signaturesForProgram(page) {
      pages += 1;
      return signaturePage([...oldestFirst].reverse(), { ...page, limit: Math.min(page.limit, PAGE) });
    },
    async transaction(signature) {
      const entry = oldestFirst.find((candidate) => candidate.signature === signature);
      if (entry === undefined) return null;
      fetched.set(signature, (fetched.get(signature) ?? 0) + 1);
      return { signature, slot: entry.slot, blockTime: 1_780_000_000n, err: entry.err, logs: [] };
    },
    async signatureStates(signatures) {
      return signatures.map(() => null);
    },
    async finalizedSlot() {
      return 0n;
    },
    async programAccountData() {
      return null;
    },
    async tokenAccountOwner() {
      return null;
    },
    watch() {
      return () => {};
    },
    async close() {},
  };
}

describe("indexer: a backlog is walked in bounded windows", () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it("Given 12,345 program transactions behind the checkpoint and more landing during catch-up, When passes run until caught up, Then each pass fetches at most a window of pages and every transaction is applied once, oldest first", async () => {
    // Given a chain far ahead of an empty checkpoint
    const chain = fakeChain();
    chain.land(12_345);
    const ctx = {
      db: database.db,
      clock: Date.now,
      usdgMint: chain.usdgMint,
      chain,
      logger: pino({ level: "silent" }),
      walk: createIndexWalk(),
    };

    // When passes run until one reaches the tip, new transactions landing between passes
    const pagesPerPass: number[] = [];
    const checkpoints: string[] = [];
    let indexed = 0;
    for (let pass = 0; pass < 100; pass += 1) {
      chain.resetCounts();
      const result = await runIndexPass(ctx);
      pagesPerPass.push(chain.pages);
      indexed += result.indexed;
      const checkpoint = await readCheckpoint(ctx);
      if (checkpoint !== null) checkpoints.push(checkpoint.signature);
      if (pass < 6) chain.land(40);
      else if (!result.incomplete) break;
    }

    // Then no pass walked more than a window
    expect(Math.max(...pagesPerPass)).toBeLessThanOrEqual(PAGES_PER_PASS_CEILING);
    // ... and the whole history was applied: each transaction once, the checkpoint at the newest
    expect(indexed).toBe(chain.history.length);
    const successful = chain.history.filter((_, n) => n % 7 !== 6);
    expect([...chain.fetched.keys()]).toEqual(successful);
    expect([...chain.fetched.values()].every((count) => count === 1)).toBe(true);
    expect(checkpoints.at(-1)).toBe(chain.history.at(-1));
    // ... oldest first: the checkpoint only ever moved forward
    const order = new Map(chain.history.map((signature, n) => [signature, n]));
    const positions = checkpoints.map((signature) => order.get(signature) ?? -1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
