/**
 * How a hold that is gone from the chain was closed, read from the chain's own record: the
 * program emits `TransactionApproved`, `TransactionRejected` or `TransactionExpired` naming the
 * hold in the transaction that closes it. Used when the database still says `pending_approval`
 * for a hold that no longer exists (a decision whose process died before writing it, or an
 * expired hold someone else closed — anyone may), so the row records what really happened.
 */

import type { Decision } from "@cpay/ledger";
import { type LandedFacts, landedFacts } from "@cpay/sdk";
import { confirmedTransaction } from "@cpay/sdk/chain";
import { address } from "@solana/kit";
import type { ServiceContext } from "../core/service-context";

/** The transactions of a hold's address worth reading: creation, one decision, failed attempts. */
const HISTORY_LIMIT = 50;

/** The decision that closed the hold at `pending`, or null when the chain's history does not say. */
export async function closingOutcome(service: ServiceContext, pending: string): Promise<Decision | null> {
  const programAddress = address(service.chain.programId);
  const history = await service.chain.getSignaturesForAddress(pending, { limit: HISTORY_LIMIT });
  const landed = history.filter((info) => info.err === null);
  // A closing transaction seen at `processed` is readable once confirmed: wait for it, all at once.
  const transactions = await Promise.all(
    landed.map((info) => confirmedTransaction(service.chain, info.signature)),
  );
  for (const [index, info] of landed.entries()) {
    const transaction = transactions[index] ?? null;
    if (transaction === null) continue;
    let facts: LandedFacts["facts"];
    try {
      facts = landedFacts(transaction, { programAddress }).facts;
    } catch {
      continue;
    }
    for (const fact of facts) {
      if (fact.kind === "hold_decided" && fact.pending === pending) {
        return { status: fact.decision, signature: info.signature };
      }
    }
  }
  return null;
}
