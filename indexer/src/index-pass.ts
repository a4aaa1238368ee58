/**
 * One indexing pass: the program transactions the chain has at `confirmed` after the checkpoint,
 * oldest first, each decoded, enriched from the chain, and committed with the checkpoint. The walk
 * (getSignaturesForAddress from the checkpoint) is the source of truth; pushes only make passes
 * happen sooner, so a dropped notification or webhook is repaired by the next pass. A pass asks the
 * chain for at most one window of signature pages, so a long backlog takes a number of passes in
 * proportion to its length, not to its square.
 */

import { EventLogError } from "@cpay/sdk";
import type { Logger } from "pino";
import type { ChainTransaction, IndexerChain, ProgramSignature } from "./chain/indexer-chain";
import { type Checkpoint, readCheckpoint } from "./checkpoint";
import type { ApplyContext } from "./project/apply-context";
import { applyTransactions, type ObservedRun } from "./project/apply-transaction";
import { observeTransaction } from "./project/observe-transaction";

/** getSignaturesForAddress's page maximum. */
const PAGE = 1000;
/**
 * Signature pages one pass walks at most (plus a one-entry probe). The chain lists a program's
 * signatures newest first only, so a backlog bigger than this is walked down one window per pass
 * (IndexWalk) instead of from the tip to the checkpoint on every pass, which made catch-up quadratic.
 */
const WINDOW_PAGES = 5;

/** What the indexer's chain work needs: the outbox, the chain, a logger. */
export interface IndexerContext extends ApplyContext {
  readonly chain: IndexerChain;
  readonly logger: Logger;
}

export interface PassContext extends IndexerContext {
  /** Where a catch-up stands between passes (one per indexer, createIndexWalk). */
  readonly walk: IndexWalk;
}

/**
 * A catch-up's position between passes: `bounds` holds the cursors of the windows walked down from
 * the tip but not yet applied (each the oldest signature of its window, the newest window first);
 * a pass walks from the last one down to the checkpoint, applies what lies there if the checkpoint is
 * within a window, and pops it. It holds only while the checkpoint is the one the last pass left
 * (`after`): when anything else moved it (another leader, a reset), the walk starts over at the tip.
 * Cursors are only ever signatures newer than that checkpoint, so no walk can reach below it.
 */
export interface IndexWalk {
  after: string | null | undefined;
  bounds: string[];
}

/** A walk with no memory: the first pass starts at the tip. */
export function createIndexWalk(): IndexWalk {
  return { after: undefined, bounds: [] };
}

export interface PassResult {
  /** Program transactions committed by this pass (failed ones included: they advance the checkpoint). */
  readonly indexed: number;
  /** True when the pass did not reach the tip: more windows, or a transaction not served yet. */
  readonly incomplete: boolean;
  /** True when the pass stopped at a transaction the chain could not serve yet (retried next pass). */
  readonly stalled: boolean;
}

/** Chain transactions committed together (one database transaction, one checkpoint write). */
const RUN = 50;

/**
 * Indexes the oldest window of transactions after the checkpoint (up to `limit` of them): every
 * transaction between the checkpoint and the window's cursor (the tip when the walk has none), oldest
 * first; or, when more than a window lies below that cursor, only walks one window further down.
 */
export async function runIndexPass(ctx: PassContext, limit = WINDOW_PAGES * PAGE): Promise<PassResult> {
  const checkpoint = await readCheckpoint(ctx);
  const { walk } = ctx;
  let at = checkpoint?.signature ?? null;
  if (walk.after !== at) walk.bounds = [];
  walk.after = at;
  const before = walk.bounds.at(-1);
  const window = await walkWindow(ctx.chain, checkpoint, before);
  if (window.below !== null) {
    // The checkpoint is further down: this window is applied once everything older is.
    walk.bounds.push(window.below);
    return { indexed: 0, incomplete: true, stalled: false };
  }
  const pending = window.oldestFirst;
  let indexed = 0;
  let run: ObservedRun[] = [];
  const commit = async () => {
    await applyTransactions(ctx, run);
    indexed += run.length;
    at = run.at(-1)?.at.signature ?? at;
    run = [];
  };
  try {
    for (const entry of pending.slice(0, limit)) {
      const transaction = entry.err === null ? await ctx.chain.transaction(entry.signature) : null;
      if (entry.err === null && transaction === null) {
        await commit();
        return { indexed, incomplete: true, stalled: true };
      }
      const observed = transaction === null ? NOTHING : await observeOrSkip(ctx, transaction);
      if (observed.truncated) {
        ctx.logger.warn(
          { signature: entry.signature },
          "program logs were truncated: events after the cut are missing",
        );
      }
      run.push({ at: { signature: entry.signature, slot: entry.slot }, facts: observed.facts });
      if (run.length >= RUN) await commit();
    }
    await commit();
  } finally {
    // What was committed is the checkpoint now, whatever failed after it.
    walk.after = at;
  }
  const rest = pending.length > limit;
  if (!rest) walk.bounds.pop();
  // Below a cursor, the windows above it (up to the tip) are still to come.
  return { indexed, incomplete: rest || before !== undefined, stalled: false };
}

const NOTHING = { facts: [], truncated: false } as const;

/**
 * A transaction whose program data does not decode is a program/IDL mismatch no retry can fix:
 * it is logged loudly and passed over (its signature stays in the chain for a later re-index),
 * rather than stopping every account's indexing behind it.
 */
async function observeOrSkip(ctx: PassContext, transaction: ChainTransaction) {
  try {
    return await observeTransaction(ctx.chain, transaction);
  } catch (error) {
    if (!(error instanceof EventLogError)) throw error;
    ctx.logger.error(
      { signature: transaction.signature, err: error.message },
      "program events do not decode; skipped",
    );
    return NOTHING;
  }
}

/**
 * Program signatures newer than the checkpoint (all of them when there is none) and older than
 * `before` (the tip when undefined), oldest first, when at most a window of them lies there; else
 * nothing, and the cursor a walk continues from (`below`). The walk stops at the checkpoint's
 * signature (`until`) and, should the chain no longer know that signature (its fork was abandoned,
 * and RPC then ignores `until`), at the checkpoint's slot: what is older was indexed already. Entries
 * of the checkpoint's own slot may come again then, which the guarded transitions and keyed facts
 * make harmless. An unknown `before` (a fork abandoned since) yields nothing, so the caller drops
 * that cursor and walks again from the one above it.
 */
async function walkWindow(
  chain: IndexerChain,
  checkpoint: Checkpoint | null,
  before: string | undefined,
): Promise<{ readonly oldestFirst: ProgramSignature[]; readonly below: string | null }> {
  const newestFirst: ProgramSignature[] = [];
  const page = async (limit: number, cursor: string | undefined) => {
    const entries = await chain.signaturesForProgram({
      limit,
      ...(checkpoint === null ? {} : { until: checkpoint.signature }),
      ...(cursor === undefined ? {} : { before: cursor }),
    });
    const fresh =
      checkpoint === null
        ? entries
        : entries.filter(
            (entry) => entry.slot >= checkpoint.slot && entry.signature !== checkpoint.signature,
          );
    return { entries, fresh, reached: entries.length < limit || fresh.length < entries.length };
  };
  let cursor = before;
  for (let pages = 0; pages < WINDOW_PAGES; pages += 1) {
    const { entries, fresh, reached } = await page(PAGE, cursor);
    newestFirst.push(...fresh);
    if (reached) return { oldestFirst: newestFirst.reverse(), below: null };
    cursor = entries[entries.length - 1]?.signature;
  }
  // A full window: one entry more tells whether the checkpoint lies right below it.
  const probe = await page(1, cursor);
  if (probe.fresh.length === 0) return { oldestFirst: newestFirst.reverse(), below: null };
  return { oldestFirst: [], below: cursor ?? null };
}
