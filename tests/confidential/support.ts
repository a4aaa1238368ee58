/**
 * Shared set-up for the confidential suites: an embedded cluster (no agent-policy program needed),
 * wallets with derived confidential keys and configured USDG accounts, and a ClusterPort wrapper
 * that fails chosen submissions (failure injection).
 */
import {
  type ClusterPort,
  createEmbeddedCluster,
  type EmbeddedCluster,
  SubmissionRejected,
} from "@cpay/sdk/cluster";
import {
  applyPendingBalance,
  availableBalance,
  type ConfidentialKeyset,
  depositConfidential,
  deriveConfidentialKeys,
  generateConfidentialSecret,
  readConfidentialState,
  setupConfidentialAccount,
} from "@cpay/sdk/confidential";
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";

export interface Party {
  readonly wallet: KeyPairSigner;
  readonly keys: ConfidentialKeyset;
  readonly tokenAccount: string;
}

export function startCluster(): Promise<EmbeddedCluster> {
  return createEmbeddedCluster({ slotMs: 0, programPath: null });
}

/** A funded wallet with a configured confidential USDG account. */
export async function confidentialParty(cluster: EmbeddedCluster): Promise<Party> {
  const wallet = await generateKeyPairSigner();
  cluster.requestAirdrop(wallet.address, 10_000_000_000n);
  const keys = deriveConfidentialKeys(generateConfidentialSecret());
  const { tokenAccount } = await setupConfidentialAccount(cluster, {
    owner: wallet,
    mint: cluster.usdgMint,
    keys,
  });
  return { wallet, keys, tokenAccount };
}

/** Mints `amount` USDG to the party, deposits it and applies it: all of it becomes available. */
export async function fundConfidential(
  cluster: EmbeddedCluster,
  party: Party,
  amount: bigint,
): Promise<void> {
  await cluster.mintUsdgToOwner(party.wallet.address, amount);
  await depositConfidential(cluster, { owner: party.wallet, mint: cluster.usdgMint, amount });
  await applyPendingBalance(cluster, { owner: party.wallet, mint: cluster.usdgMint, keys: party.keys });
}

/** The party's available confidential balance (AE fast path). */
export function available(cluster: ClusterPort, party: Party): bigint {
  const state = readConfidentialState(cluster, party.tokenAccount);
  if (state === null) throw new Error("not configured");
  return availableBalance(state, party.keys);
}

/** The party's pending credit count. */
export function pendingCredits(cluster: ClusterPort, party: Party): bigint {
  return readConfidentialState(cluster, party.tokenAccount)?.pendingBalanceCreditCounter ?? -1n;
}

/**
 * The same cluster, except that the submissions `fails(n)` picks (n is 1-based, counted from
 * creation) are refused as a failed preflight: nothing lands, exactly like a failing transaction.
 */
export function failingSubmissions(cluster: ClusterPort, fails: (n: number) => boolean): ClusterPort {
  let count = 0;
  return {
    ...cluster,
    sendTransaction(wire, options) {
      count += 1;
      if (fails(count))
        throw new SubmissionRejected("preflight_failed", `injected failure of submission ${count}`);
      return cluster.sendTransaction(wire, options);
    },
  };
}

/** Fails exactly submission `failAt`. */
export function failingNthSubmission(cluster: ClusterPort, failAt: number): ClusterPort {
  return failingSubmissions(cluster, (n) => n === failAt);
}
