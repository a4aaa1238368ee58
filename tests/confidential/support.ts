/**
 * Shared set-up for the confidential suites: an embedded cluster (no agent-policy program needed),
 * the chain port over it (one per cluster: SDK flows go through it), wallets with derived
 * confidential keys and configured USDG accounts, and a chain port wrapper that fails chosen
 * submissions (failure injection). The suites' own assertions read the simulator synchronously.
 */

import { createEmbeddedCluster, type EmbeddedCluster, inProcessChain } from "@cpay/localnet/cluster";
import { type ChainPort, SubmissionRejected } from "@cpay/sdk/chain";
import {
  applyPendingBalance,
  availableBalance,
  type ConfidentialKeyset,
  depositConfidential,
  deriveConfidentialKeys,
  generateConfidentialSecret,
  setupConfidentialAccount,
} from "@cpay/sdk/confidential";
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { confidentialStateOf } from "../support/confidential-state";
import { perSuite } from "../support/shared-set-up";

export interface Party {
  readonly wallet: KeyPairSigner;
  readonly keys: ConfidentialKeyset;
  readonly tokenAccount: string;
}

export function startCluster(): Promise<EmbeddedCluster> {
  return createEmbeddedCluster({ slotMs: 0, programPath: null });
}

const chains = new WeakMap<EmbeddedCluster, ChainPort>();

/** The chain port over `cluster`, built once per cluster (the SDK's per-account queues key on it). */
export function chainOf(cluster: EmbeddedCluster): ChainPort {
  let chain = chains.get(cluster);
  if (chain === undefined) {
    chain = inProcessChain(cluster);
    chains.set(cluster, chain);
  }
  return chain;
}

export { confidentialStateOf } from "../support/confidential-state";

/** A funded wallet with a configured confidential USDG account. */
export async function confidentialParty(cluster: EmbeddedCluster): Promise<Party> {
  const wallet = await generateKeyPairSigner();
  cluster.requestAirdrop(wallet.address, 10_000_000_000n);
  const keys = deriveConfidentialKeys(generateConfidentialSecret());
  const { tokenAccount } = await setupConfidentialAccount(chainOf(cluster), {
    owner: wallet,
    mint: cluster.usdgMint,
    keys,
  });
  return { wallet, keys, tokenAccount };
}

export type TwoParties<Name extends string> = {
  readonly cluster: EmbeddedCluster;
  readonly chain: ChainPort;
} & { readonly [K in Name]: Party };

/**
 * What most suites start from, shared by the suite's tests (perSuite): a fresh cluster, stopped
 * after the last test; its chain port (the SDK flows' way to it; the suites' assertions read
 * `cluster` itself); and two parties with configured accounts, unfunded, by the names the suite
 * reads them as (`given.alice`).
 */
export function twoPartiesSuite<const First extends string, const Second extends string>(
  first: First,
  second: Second,
): TwoParties<First | Second> {
  return perSuite(
    async () => {
      const cluster = await startCluster();
      try {
        const parties = {
          [first]: await confidentialParty(cluster),
          [second]: await confidentialParty(cluster),
        };
        return { cluster, chain: chainOf(cluster), ...parties } as TwoParties<First | Second>;
      } catch (error) {
        cluster.stop();
        throw error;
      }
    },
    async ({ cluster }) => cluster.stop(),
  );
}

/** Mints `amount` USDG to the party, deposits it and applies it: all of it becomes available. */
export async function fundConfidential(
  cluster: EmbeddedCluster,
  party: Party,
  amount: bigint,
): Promise<void> {
  await cluster.mintUsdgToOwner(party.wallet.address, amount);
  const chain = chainOf(cluster);
  await depositConfidential(chain, { owner: party.wallet, mint: cluster.usdgMint, amount });
  await applyPendingBalance(chain, { owner: party.wallet, mint: cluster.usdgMint, keys: party.keys });
}

/** The party's available confidential balance (AE fast path). */
export function available(cluster: EmbeddedCluster, party: Party): bigint {
  const state = confidentialStateOf(cluster, party.tokenAccount);
  if (state === null) throw new Error("not configured");
  return availableBalance(state, party.keys);
}

/** The party's pending credit count. */
export function pendingCredits(cluster: EmbeddedCluster, party: Party): bigint {
  return confidentialStateOf(cluster, party.tokenAccount)?.pendingBalanceCreditCounter ?? -1n;
}

/**
 * The same chain, except that the submissions `fails(n)` picks (n is 1-based, counted from
 * creation) are refused as a failed preflight: nothing lands, exactly like a failing transaction.
 */
export function failingSubmissions(chain: ChainPort, fails: (n: number) => boolean): ChainPort {
  let count = 0;
  return {
    ...chain,
    async sendTransaction(wire, options) {
      count += 1;
      if (fails(count))
        throw new SubmissionRejected("preflight_failed", `injected failure of submission ${count}`);
      return chain.sendTransaction(wire, options);
    },
  };
}

/** Fails exactly submission `failAt`. */
export function failingNthSubmission(chain: ChainPort, failAt: number): ChainPort {
  return failingSubmissions(chain, (n) => n === failAt);
}
