/**
 * One indexing pass: every program transaction the chain has at `confirmed` after the checkpoint,
 * oldest first, each decoded, enriched from the chain, and committed with the checkpoint. The walk
 * (getSignaturesForAddress from the checkpoint) is the source of truth; pushes only make passes
 * happen sooner, so a dropped notification or webhook is repaired by the next pass.
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

/** Chain transactions committed together (one database transaction, one checkpoint write). */
const RUN = 50;

/** Indexes up to `limit` transactions after the checkpoint. */
export async function runIndexPass(ctx: PassContext, limit = 5000): Promise<PassResult> {
  const checkpoint = await readCheckpoint(ctx);
  const pending = await signaturesAfter(ctx.chain, checkpoint);
  let indexed = 0;
  let run: ObservedRun[] = [];
  const commit = async () => {
    await applyTransactions(ctx, run);
    indexed += run.length;
    run = [];
  };
  for (const entry of pending.slice(0, limit)) {
    const transaction = entry.err === null ? await ctx.chain.transaction(entry.signature) : null;
    if (entry.err === null && transaction === null) {
      await commit();
      return { indexed, incomplete: true };
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

/**
 * Program signatures newer than the checkpoint (all of them when there is none), oldest first.
 * The walk stops at the checkpoint's signature (`until`) and, should the chain no longer know that
 * signature (its fork was abandoned, and RPC then ignores `until`), at the checkpoint's slot: what is
 * older was indexed already. Entries of the checkpoint's own slot may come again then, which the
 * guarded transitions and keyed facts make harmless.
 */
async function signaturesAfter(
  chain: IndexerChain,
  checkpoint: Checkpoint | null,
): Promise<ProgramSignature[]> {
  const newestFirst: ProgramSignature[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await chain.signaturesForProgram({
      limit: PAGE,
      ...(checkpoint === null ? {} : { until: checkpoint.signature }),
      ...(before === undefined ? {} : { before }),
    });
    const fresh =
      checkpoint === null
        ? page
        : page.filter((entry) => entry.slot >= checkpoint.slot && entry.signature !== checkpoint.signature);
    newestFirst.push(...fresh);
    if (page.length < PAGE || fresh.length < page.length) break;
    before = page[page.length - 1]?.signature;
  }
  return newestFirst.reverse();
}
