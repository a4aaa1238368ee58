/**
 * What the chain says a wallet's transfers were, independently of the service's records: every
 * successful transaction that mentions the wallet, read for the program's `ServiceTransferRecorded`
 * events, which carry the service's transfer id. A transfer that moved funds has exactly one such
 * transaction; one that moved nothing has none.
 */

import { idFromBytes } from "@cpay/ledger/ids";
import { parseAgentPolicyEvents } from "@cpay/sdk";
import { type ChainPort, confirmedTransaction } from "@cpay/sdk/chain";
import { address } from "@solana/kit";

const PAGE = 1_000;

/** Transfer id -> the signatures of the transactions that recorded it, for transfers sent by `wallet`. */
export async function transfersRecordedOnChain(
  chain: ChainPort,
  wallet: string,
): Promise<Map<string, string[]>> {
  const programAddress = address(chain.programId);
  const recorded = new Map<string, string[]>();
  let before: string | undefined;
  for (;;) {
    const page = await chain.getSignaturesForAddress(wallet, {
      limit: PAGE,
      commitment: "confirmed",
      ...(before === undefined ? {} : { before }),
    });
    for (const entry of page) {
      if (entry.err !== null) continue;
      const landed = await confirmedTransaction(chain, entry.signature);
      if (landed === null) throw new Error(`${entry.signature} is in ${wallet}'s history but not readable`);
      for (const event of parseAgentPolicyEvents(landed.logs, { programAddress }).events) {
        if (event.name !== "ServiceTransferRecorded" || event.data.sender !== wallet) continue;
        const id = idFromBytes("tr", Uint8Array.from(event.data.transferId));
        recorded.set(id, [...(recorded.get(id) ?? []), entry.signature]);
      }
    }
    if (page.length < PAGE) return recorded;
    before = page[page.length - 1]?.signature;
  }
}
