/**
 * "Nothing changed" as data: a snapshot of accounts (lamports, owner, every data byte) taken
 * before and after an attempt, and the list of differences. Every account the program owns is
 * always included, so an attempt that creates, rewrites or closes one of them shows up even when
 * the test did not name it.
 */
import type { EmbeddedCluster } from "@cpay/localnet/cluster";

export interface AccountState {
  readonly lamports: bigint;
  readonly owner: string;
  readonly data: string;
}

/** Address -> state (null: no such account). */
export type Snapshot = ReadonlyMap<string, AccountState | null>;

/** The state of `addresses` and of every account the agent-policy program owns. */
export function snapshotAccounts(cluster: EmbeddedCluster, addresses: Iterable<string>): Snapshot {
  const all = new Set<string>(addresses);
  for (const account of cluster.getProgramAccounts(cluster.programId)) all.add(account.address);
  const snapshot = new Map<string, AccountState | null>();
  for (const address of all) {
    const account = cluster.getAccount(address);
    snapshot.set(
      address,
      account === null
        ? null
        : {
            lamports: account.lamports,
            owner: account.owner,
            data: Buffer.from(account.data).toString("hex"),
          },
    );
  }
  return snapshot;
}

/**
 * Every difference between two snapshots, as readable lines; `feePayer` may have lost exactly
 * `fee` lamports (what a landed transaction costs), which is not a difference.
 */
export function snapshotDifferences(
  before: Snapshot,
  after: Snapshot,
  allowance: { readonly feePayer?: string; readonly fee?: bigint } = {},
): string[] {
  const differences: string[] = [];
  for (const address of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(address) ?? null;
    const now = after.get(address) ?? null;
    if (was === null || now === null) {
      if (was !== now) differences.push(`${address}: ${was === null ? "created" : "deleted"}`);
      continue;
    }
    const expectedLamports =
      address === allowance.feePayer ? was.lamports - (allowance.fee ?? 0n) : was.lamports;
    if (now.lamports !== expectedLamports) {
      differences.push(
        `${address}: lamports ${was.lamports} -> ${now.lamports} (expected ${expectedLamports})`,
      );
    }
    if (now.owner !== was.owner) differences.push(`${address}: owner ${was.owner} -> ${now.owner}`);
    if (now.data !== was.data) differences.push(`${address}: data changed`);
  }
  return differences;
}
