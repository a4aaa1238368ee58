/**
 * A chain port whose `getAccount` calls made together (in the same synchronous run, as the reads
 * an operation starts at once with `Promise.all`) go to the cluster as one `getMultipleAccounts`
 * per commitment: one round trip, and one request to encode and answer to parse, instead of one
 * each. Everything else is the port itself. Answers are those of the separate reads (same
 * commitment, order-independent); a failed batch fails each read in it.
 */
import type { ChainPort, Commitment } from "./chain-port";
import type { AccountRecord } from "./chain-types";

interface Read {
  readonly address: string;
  readonly commitment: Commitment | undefined;
  readonly resolve: (record: AccountRecord | null) => void;
  readonly reject: (error: unknown) => void;
}

export function batchingAccountReads(chain: ChainPort): ChainPort {
  let waiting: Read[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    const byCommitment = new Map<Commitment | undefined, Read[]>();
    for (const read of batch)
      byCommitment.set(read.commitment, [...(byCommitment.get(read.commitment) ?? []), read]);
    for (const [commitment, reads] of byCommitment) {
      const addresses = reads.map((read) => read.address);
      const answer =
        reads.length === 1
          ? chain.getAccount(addresses[0] as string, commitment).then((record) => [record])
          : chain.getMultipleAccounts(addresses, commitment);
      answer.then(
        (records) => {
          for (const [index, read] of reads.entries()) read.resolve(records[index] ?? null);
        },
        (error: unknown) => {
          for (const read of reads) read.reject(error);
        },
      );
    }
  };
  const getAccount = (address: string, commitment?: Commitment) =>
    new Promise<AccountRecord | null>((resolve, reject) => {
      if (waiting.length === 0) queueMicrotask(flush);
      waiting.push({ address, commitment, resolve, reject });
    });
  return new Proxy(chain, {
    get(target, property) {
      if (property === "getAccount") return getAccount;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
