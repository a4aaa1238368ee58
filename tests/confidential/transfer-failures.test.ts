/**
 * Failure injected at every transaction of a confidential transfer and withdraw: nothing moves,
 * every proof context account the attempt created is closed (rent back to the payer), the error is
 * typed and names the step, and a retry succeeds.
 */

import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import type { ChainPort } from "@cpay/sdk/chain";
import {
  type ConfidentialError,
  type ConfidentialStep,
  closeProofContexts,
  isConfidentialError,
  transferConfidential,
  withdrawConfidential,
} from "@cpay/sdk/confidential";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  available,
  confidentialStateOf,
  failingNthSubmission,
  failingSubmissions,
  fundConfidential,
  type Party,
  pendingCredits,
  startWithTwoParties,
} from "./support";

let cluster: EmbeddedCluster;
/** The SDK flows' way to the cluster (built once); assertions read `cluster` itself. */
let chain: ChainPort;
let sender: Party;
let recipient: Party;

beforeAll(async () => {
  ({
    cluster,
    chain,
    parties: [sender, recipient],
  } = await startWithTwoParties());
  await fundConfidential(cluster, sender, 100_000_000n);
});
afterAll(() => cluster.stop());

/** Fees of the few transactions an attempt lands are far below the rent of any context account. */
const FEES_ONLY = 100_000n;

async function expectStepFailure(
  attempt: Promise<unknown>,
  step: ConfidentialStep,
): Promise<ConfidentialError> {
  const error = await attempt.then(
    () => {
      throw new Error(`expected ${step} to fail`);
    },
    (failure: unknown) => failure,
  );
  expect(isConfidentialError(error, "step_failed", step)).toBe(true);
  return error as ConfidentialError;
}

function expectContextsGone(error: ConfidentialError): void {
  expect(error.contexts.length).toBeGreaterThan(0);
  for (const context of error.contexts) {
    expect(context.outcome).not.toBe("orphaned");
    expect(cluster.getAccount(context.address)).toBeNull();
  }
}

const lamports = (address: string) => cluster.getAccount(address)?.lamports ?? 0n;
/** The sender's confidential transfer of `amount` to the recipient, as the SDK takes it. */
const senderToRecipient = (amount: bigint) => ({
  owner: sender.wallet,
  keys: sender.keys,
  mint: cluster.usdgMint,
  recipient: recipient.wallet.address,
  amount,
});

describe("a confidential transfer failing at each step", () => {
  const steps: [number, ConfidentialStep][] = [
    [1, "equality_proof"],
    [2, "ciphertext_validity_proof"],
    [3, "range_proof"],
    [4, "transfer"],
  ];

  it.each(steps)(
    "Given submission %i fails, then the %s step is named, nothing moved, contexts are closed, and a retry succeeds",
    async (failAt, step) => {
      const senderBefore = available(cluster, sender);
      const creditsBefore = pendingCredits(cluster, recipient);
      const payerBefore = lamports(sender.wallet.address);
      const input = senderToRecipient(1_000_001n);

      const error = await expectStepFailure(
        transferConfidential(failingNthSubmission(chain, failAt), input),
        step,
      );

      expect(available(cluster, sender)).toBe(senderBefore);
      expect(pendingCredits(cluster, recipient)).toBe(creditsBefore);
      expectContextsGone(error);
      expect(payerBefore - lamports(sender.wallet.address)).toBeLessThan(FEES_ONLY);

      await transferConfidential(chain, input);
      expect(available(cluster, sender)).toBe(senderBefore - 1_000_001n);
      expect(pendingCredits(cluster, recipient)).toBe(creditsBefore + 1n);
    },
  );

  it("Given the first proof transaction fails, then the other context that landed is reported closed", async () => {
    const error = await expectStepFailure(
      transferConfidential(failingNthSubmission(chain, 1), senderToRecipient(5n)),
      "equality_proof",
    );
    const outcomes = Object.fromEntries(error.contexts.map((context) => [context.step, context.outcome]));
    expect(outcomes).toEqual({
      equality_proof: "never_created",
      ciphertext_validity_proof: "closed",
      range_proof: "never_created",
    });
  });
});

describe("when the final submission reports an error", () => {
  it("Given it landed anyway (e.g. an RPC timeout), then the transfer is reported done, not 'nothing moved'", async () => {
    const before = available(cluster, sender);
    const credits = pendingCredits(cluster, recipient);
    let count = 0;
    const flaky: ChainPort = {
      ...chain,
      async sendTransaction(wire, options) {
        count += 1;
        const signature = await chain.sendTransaction(wire, options);
        if (count === 4) throw new Error("socket hang up");
        return signature;
      },
    };
    const result = await transferConfidential(flaky, senderToRecipient(11n));
    expect(result.signatures).toHaveLength(4);
    expect(available(cluster, sender)).toBe(before - 11n);
    expect(pendingCredits(cluster, recipient)).toBe(credits + 1n);
  });
});

describe("when the clean-up fails too", () => {
  it("Given every submission from the range proof on fails, then contexts are reported orphaned and closeProofContexts recovers them", async () => {
    const before = available(cluster, sender);
    const payerBefore = lamports(sender.wallet.address);
    const error = await expectStepFailure(
      transferConfidential(
        failingSubmissions(chain, (n) => n >= 3),
        senderToRecipient(9n),
      ),
      "range_proof",
    );
    expect(available(cluster, sender)).toBe(before);
    expect(error.contexts.map((context) => context.outcome)).toEqual(["orphaned", "orphaned", "orphaned"]);
    const orphans = error.contexts.map((context) => context.address);
    // The range context was allocated but never verified: it is closed after verifying a zero proof.
    expect(cluster.getAccount(orphans[2] ?? "")?.data.every((byte) => byte === 0)).toBe(true);

    const stillOpen = await closeProofContexts(chain, { payer: sender.wallet, addresses: orphans });

    expect(stillOpen).toEqual([]);
    for (const address of orphans) expect(cluster.getAccount(address)).toBeNull();
    expect(payerBefore - lamports(sender.wallet.address)).toBeLessThan(FEES_ONLY);
  });
});

describe("a confidential withdraw failing at each step", () => {
  const steps: [number, ConfidentialStep][] = [
    [1, "equality_proof"],
    [2, "range_proof"],
    [3, "withdraw"],
  ];

  it.each(steps)(
    "Given submission %i fails, then %s is named, nothing moved, and a retry succeeds",
    async (failAt, step) => {
      const before = available(cluster, sender);
      const publicBefore = confidentialStateOf(cluster, sender.tokenAccount)?.publicAmount ?? -1n;
      const input = { owner: sender.wallet, keys: sender.keys, mint: cluster.usdgMint, amount: 7n };

      const error = await expectStepFailure(
        withdrawConfidential(failingNthSubmission(chain, failAt), input),
        step,
      );
      expect(available(cluster, sender)).toBe(before);
      expectContextsGone(error);

      await withdrawConfidential(chain, input);
      expect(available(cluster, sender)).toBe(before - 7n);
      expect(confidentialStateOf(cluster, sender.tokenAccount)?.publicAmount).toBe(publicBefore + 7n);
    },
  );
});
