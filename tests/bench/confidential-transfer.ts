/**
 * A confidential transfer through the SDK against Token-2022's own instruction-plan helper
 * (`getConfidentialTransferInstructionPlan`, packed by kit's transaction planner) for the same
 * transfer in the same cluster run: transactions and compute units (goal: no more of either), and
 * the SDK's proof-generation time against the sum of the zk-sdk primitives it calls, each timed
 * alone (goal: within 1.2x — the SDK adds no hidden work).
 */
import { createEmbeddedCluster, type EmbeddedCluster } from "@cpay/localnet/cluster";
import {
  availableBalance,
  buildTransferProofs,
  type ConfidentialKeyset,
  loadTokenConfidentialHelpers,
  transferConfidential,
  zk,
} from "@cpay/sdk/confidential";
import {
  address,
  type Blockhash,
  createTransactionMessage,
  createTransactionPlanner,
  flattenTransactionPlan,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { getMintDecoder, getTokenDecoder } from "@solana-program/token-2022";
import {
  chainOf,
  confidentialParty,
  confidentialStateOf,
  fundConfidential,
  type Party,
} from "../confidential/support";
import type { BenchEntry, BenchResult } from "./bench-entry";
import { benchScale } from "./bench-scale";
import { costOf, median, type TransferCost } from "./transfer-cost";

const AMOUNT = 1_234_567n;
const TIMING_RUNS = benchScale(null, { full: 15, smoke: 1 });

async function sdkTransfer(cluster: EmbeddedCluster, from: Party, to: Party): Promise<TransferCost> {
  const { signatures } = await transferConfidential(chainOf(cluster), {
    owner: from.wallet,
    keys: from.keys,
    mint: cluster.usdgMint,
    recipient: to.wallet.address,
    amount: AMOUNT,
  });
  return costOf(cluster, signatures);
}

/** Token-2022's helper plan, packed by kit's planner, each planned transaction sent in plan order. */
async function helperTransfer(cluster: EmbeddedCluster, from: Party, to: Party): Promise<TransferCost> {
  const helpers = await loadTokenConfidentialHelpers();
  const decodeToken = (account: string) =>
    getTokenDecoder().decode(cluster.getAccount(account)?.data ?? new Uint8Array());
  const rpc = {
    getMinimumBalanceForRentExemption: (space: bigint) => ({
      send: async () => cluster.minimumBalanceForRentExemption(Number(space)),
    }),
  };
  const plan = await helpers.getConfidentialTransferInstructionPlan({
    sourceToken: address(from.tokenAccount),
    destinationToken: address(to.tokenAccount),
    mint: address(cluster.usdgMint),
    mintAccount: getMintDecoder().decode(cluster.getAccount(cluster.usdgMint)?.data ?? new Uint8Array()),
    sourceTokenAccount: decodeToken(from.tokenAccount),
    destinationTokenAccount: decodeToken(to.tokenAccount),
    authority: from.wallet,
    payer: from.wallet,
    amount: AMOUNT,
    sourceElgamalKeypair: from.keys.elgamal as never,
    aesKey: from.keys.ae as never,
    rpc: rpc as never,
  });
  const planner = createTransactionPlanner({
    createTransactionMessage: () =>
      pipe(createTransactionMessage({ version: 0 }), (m) =>
        setTransactionMessageFeePayerSigner(from.wallet, m),
      ),
  });
  const signatures: string[] = [];
  for (const { message } of flattenTransactionPlan(await planner(plan))) {
    const latest = cluster.getLatestBlockhash();
    const signed = await signTransactionMessageWithSigners(
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: latest.blockhash as Blockhash, lastValidBlockHeight: latest.lastValidBlockHeight },
        message,
      ),
    );
    signatures.push(cluster.sendTransaction(new Uint8Array(getTransactionEncoder().encode(signed))));
  }
  return costOf(cluster, signatures);
}

/** Median milliseconds of `measured`, with `prepare` (untimed) run before each sample. */
function time<T>(prepare: () => T, measured: (input: T) => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < TIMING_RUNS; i++) {
    const input = prepare();
    const start = performance.now();
    measured(input);
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** The zk-sdk primitives one transfer's proofs are made of, each timed alone; summed. */
function primitivesTime(keys: ConfidentialKeyset, recipient: Uint8Array, balance: bigint): number {
  const source = keys.elgamal.pubkey();
  const other = zk.ElGamalPubkey.fromBytes(recipient);
  const auditor = zk.ElGamalPubkey.fromBytes(new Uint8Array(32));
  const lo = AMOUNT & 0xffffn;
  const hi = AMOUNT >> 16n;
  const newBalance = balance - AMOUNT;
  const group = (value: bigint, opening: zk.PedersenOpening) =>
    zk.GroupedElGamalCiphertext3Handles.encryptWith(source, other, auditor, value, opening);
  const encrypt = time(
    () => new zk.PedersenOpening(),
    (opening) => group(lo, opening),
  );
  const equality = time(
    () => {
      const opening = new zk.PedersenOpening();
      // Any encryption of the new balance: the proof's cost does not depend on which.
      const ciphertext = source.encryptU64(newBalance);
      return { opening, ciphertext, commitment: zk.PedersenCommitment.from(newBalance, opening) };
    },
    ({ opening, ciphertext, commitment }) =>
      new zk.CiphertextCommitmentEqualityProofData(
        keys.elgamal,
        ciphertext,
        commitment,
        opening,
        newBalance,
      ).toBytes(),
  );
  const validity = time(
    () => {
      const [openingLo, openingHi] = [new zk.PedersenOpening(), new zk.PedersenOpening()];
      return { openingLo, openingHi, groupedLo: group(lo, openingLo), groupedHi: group(hi, openingHi) };
    },
    (input) =>
      new zk.BatchedGroupedCiphertext3HandlesValidityProofData(
        source,
        other,
        auditor,
        input.groupedLo,
        input.groupedHi,
        lo,
        hi,
        input.openingLo,
        input.openingHi,
      ).toBytes(),
  );
  const range = time(
    () => {
      const openings = [
        new zk.PedersenOpening(),
        new zk.PedersenOpening(),
        new zk.PedersenOpening(),
        new zk.PedersenOpening(),
      ];
      const values = [newBalance, lo, hi, 0n];
      return {
        openings,
        commitments: openings.map((opening, i) => zk.PedersenCommitment.from(values[i] ?? 0n, opening)),
      };
    },
    ({ openings, commitments }) =>
      new zk.BatchedRangeProofU128Data(
        commitments,
        new BigUint64Array([newBalance, lo, hi, 0n]),
        Uint8Array.from([64, 16, 32, 16]),
        openings,
      ).toBytes(),
  );
  const ae = time(
    () => keys.ae as zk.AeKey,
    (key) => key.encrypt(newBalance).toBytes(),
  );
  return 2 * encrypt + equality + validity + range + ae;
}

export const confidentialTransfer: BenchEntry = {
  name: "confidential transfer",
  async run(): Promise<BenchResult[]> {
    const cluster = await createEmbeddedCluster({ slotMs: 0, programPath: null });
    try {
      const [alice, bob] = [await confidentialParty(cluster), await confidentialParty(cluster)];
      await fundConfidential(cluster, alice, 1_000_000_000n);
      const ours = await sdkTransfer(cluster, alice, bob);
      const helper = await helperTransfer(cluster, alice, bob);

      const state = confidentialStateOf(cluster, alice.tokenAccount);
      const recipient = confidentialStateOf(cluster, bob.tokenAccount);
      if (state === null || recipient === null) throw new Error("accounts not configured");
      const balance = availableBalance(state, alice.keys);
      const proofTime = time(
        () => undefined,
        () =>
          buildTransferProofs({
            keys: alice.keys,
            availableCiphertext: state.availableBalance,
            availableBalance: balance,
            amount: AMOUNT,
            recipientPubkey: recipient.elgamalPubkey,
            auditorPubkey: new Uint8Array(32),
          }),
      );
      const primitives = primitivesTime(alice.keys, recipient.elgamalPubkey, balance);
      const round = (ms: number) => Math.round(ms * 10) / 10;
      return [
        {
          name: "confidential transfer: transactions",
          unit: "tx",
          value: ours.transactions,
          baselineName: "token-2022 plan helper",
          baseline: helper.transactions,
          goal: 1,
        },
        {
          name: "confidential transfer: compute units",
          unit: "CU",
          value: ours.computeUnits,
          baselineName: "token-2022 plan helper",
          baseline: helper.computeUnits,
          goal: 1,
        },
        {
          name: "confidential transfer: proof generation (median)",
          unit: "ms",
          value: round(proofTime),
          baselineName: "sum of zk-sdk primitives",
          baseline: round(primitives),
          goal: 1.2,
        },
      ];
    } finally {
      cluster.stop();
    }
  },
};
