/**
 * One page of `signaturesForProgram` over a list held newest first, as getSignaturesForAddress
 * answers it: an unknown `before` yields nothing, an unknown `until` sets no bound. The chain fakes
 * of the indexer suites page through this one reading.
 */
import type { IndexerChain, ProgramSignature } from "@cpay/indexer";

export function signaturePage(
  newestFirst: readonly ProgramSignature[],
  page: Parameters<IndexerChain["signaturesForProgram"]>[0],
): ProgramSignature[] {
  const position = (signature: string) => newestFirst.findIndex((entry) => entry.signature === signature);
  let start = 0;
  if (page.before !== undefined) {
    const before = position(page.before);
    if (before === -1) return [];
    start = before + 1;
  }
  const until = page.until === undefined ? -1 : position(page.until);
  const end = until === -1 ? newestFirst.length : until;
  return newestFirst.slice(start, Math.max(start, end)).slice(0, page.limit);
}
