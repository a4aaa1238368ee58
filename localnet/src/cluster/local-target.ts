/**
 * The cluster's own submission path (faucet airdrops, program deploy, mint setup, USDG minting): the
 * same processor every client transaction goes through, with the cluster's labelled keys signing.
 *
 * Two differences from a client: every transaction is preflighted, so a setup mistake throws with its
 * logs instead of leaving a failed transaction behind; and two identical requests in one slot (same
 * airdrop twice) would be the same transaction and the second refused as a duplicate, so the second
 * gets a numbered Memo instruction — what a real faucet has to do too.
 */
import { address, getBase58Decoder, type Instruction } from "@solana/kit";
import type { BlockhashQueue } from "./blockhash-queue";
import { SubmissionRejected, type TransactionRecord } from "./cluster-port";
import { buildLocalTransaction, type LocalTarget, type LocalTransactionRequest } from "./local-transaction";
import type { TransactionHistory } from "./transaction-history";
import type { TransactionProcessor } from "./transaction-processor";

const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

export function createLocalTarget(deps: {
  readonly blockhashes: BlockhashQueue;
  readonly history: TransactionHistory;
  readonly processor: TransactionProcessor;
  readonly minimumBalanceForRentExemption: (dataLength: number) => bigint;
}): LocalTarget {
  const { blockhashes, history, processor } = deps;
  let sequence = 0;
  return {
    minimumBalanceForRentExemption: deps.minimumBalanceForRentExemption,
    submit(request: LocalTransactionRequest, what: string): TransactionRecord {
      const blockhash = blockhashes.latest().blockhash;
      let wire = buildLocalTransaction({ ...request, blockhash });
      if (history.has(firstSignature(wire))) {
        sequence += 1;
        wire = buildLocalTransaction({
          ...request,
          blockhash,
          instructions: [...request.instructions, memo(what, sequence)],
        });
      }
      let signature: string;
      try {
        signature = processor.send(wire, { preflight: true });
      } catch (error) {
        if (!(error instanceof SubmissionRejected)) throw error;
        const logs = error.outcome?.logs.join("\n") ?? "";
        throw new SubmissionRejected(
          error.kind,
          `${what}: ${error.message}${logs ? `\n${logs}` : ""}`,
          error.outcome,
        );
      }
      const record = history.get(signature) as TransactionRecord;
      // Preflight passed against the same state, so this cannot fail; if it ever does, say so loudly.
      if (record.err !== null) throw new Error(`${what} landed with ${JSON.stringify(record.err)}`);
      return record;
    },
  };
}

/** The transaction id of signed wire bytes (fewer than 128 signatures: a 1-byte count). */
function firstSignature(wire: Uint8Array): string {
  return getBase58Decoder().decode(wire.subarray(1, 65));
}

function memo(what: string, sequence: number): Instruction {
  return {
    programAddress: MEMO_PROGRAM,
    data: new TextEncoder().encode(`cpay localnet ${what} #${sequence}`),
  };
}
