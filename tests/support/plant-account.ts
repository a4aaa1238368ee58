/**
 * Writes an account straight into the cluster's LiteSVM (no transaction): how the suites craft the
 * look-alike accounts an attacker's own program could hold — the same bytes as one of ours, under
 * another owner.
 */
import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import { type Address, lamports } from "@solana/kit";

export function plantAccount(
  cluster: EmbeddedCluster,
  account: { readonly address: Address; readonly owner: Address; readonly data: Uint8Array },
): void {
  cluster.svm.setAccount({
    address: account.address,
    lamports: lamports(cluster.minimumBalanceForRentExemption(account.data.length)),
    programAddress: account.owner,
    executable: false,
    data: Uint8Array.from(account.data),
    space: BigInt(account.data.length),
  });
}

/** A copy of the bytes at `address`, or an error when there is no account. */
export function accountBytes(cluster: EmbeddedCluster, address: Address): Uint8Array {
  const account = cluster.getAccount(address);
  if (account === null) throw new Error(`no account at ${address}`);
  return Uint8Array.from(account.data);
}
