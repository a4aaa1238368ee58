/**
 * One indexing pass: every program transaction the chain has at `confirmed` after the checkpoint,
 * oldest first, each decoded, enriched from the chain, and committed with the checkpoint. The walk
 * (getSignaturesForAddress from the checkpoint) is the source of truth; pushes only make passes
 * happen sooner, so a dropped notification or webhook is repaired by the next pass.
 */

import { EventLogError } from "@cpay/sdk";
import type { Logger } from "pino";
import type { ChainTransaction, IndexerChain, ProgramSignature } from "./chain/indexer-chain";
import { readCheckpoint } from "./checkpoint";
import type { ApplyContext } from "./project/apply-context";
import { applyTransaction } from "./project/apply-transaction";
import { observeTransaction } from "./project/observe-transaction";

/** getSignaturesForAddress's page maximum. */
const PAGE = 1000;

export interface PassContext extends ApplyContext {
  readonly chain: IndexerChain;
  readonly logger: Logger;
}

export interface PassResult {
  /** Program transactions committed by this pass (failed ones included: they advance the checkpoint). */
  readonly indexed: number;
  /** True when the pass stopped at a transaction the chain could not serve yet (retried next pass). */
  readonly incomplete: boolean;
}

/** Indexes up to `limit` transactions after the checkpoint. */
export async function runIndexPass(ctx: PassContext, limit = 5000): Promise<PassResult> {
  const checkpoint = await readCheckpoint(ctx);
  const pending = await signaturesAfter(ctx.chain, checkpoint?.signature);
  let indexed = 0;
  for (const entry of pending.slice(0, limit)) {
    const transaction = entry.err === null ? await ctx.chain.transaction(entry.signature) : null;
    if (entry.err === null && transaction === null) return { indexed, incomplete: true };
    const observed = transaction === null ? NOTHING : await observeOrSkip(ctx, transaction);
    if (observed.truncated) {
      ctx.logger.warn(
        { signature: entry.signature },
        "program logs were truncated: events after the cut are missing",
      );
    }
    await applyTransaction(ctx, { signature: entry.signature, slot: entry.slot }, observed.facts);
    indexed += 1;
  }
  return { indexed, incomplete: pending.length > limit };
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

/** Program signatures newer than `until` (all of them when null), oldest first. */
async function signaturesAfter(chain: IndexerChain, until: string | undefined): Promise<ProgramSignature[]> {
  const newestFirst: ProgramSignature[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await chain.signaturesForProgram({
      limit: PAGE,
      ...(until === undefined ? {} : { until }),
      ...(before === undefined ? {} : { before }),
    });
    newestFirst.push(...page);
    if (page.length < PAGE) break;
    before = page[page.length - 1]?.signature;
  }
  return newestFirst.reverse();
}
