/**
 * Failure injected at every transaction of a confidential transfer and withdraw: nothing moves,
 * every proof context account the attempt created is closed (rent back to the payer), the error is
 * typed and names the step, and a retry succeeds.
 */

import type { ChainPort } from "@cpay/sdk/chain";
import {
  type ConfidentialError,
  type ConfidentialStep,
  closeProofContexts,
  isConfidentialError,
  transferConfidential,
  withdrawConfidential,
} from "@cpay/sdk/confidential";
import { beforeAll, describe, expect, it } from "vitest";
import {
  available,
  confidentialStateOf,
  failingNthSubmission,
  failingSubmissions,
  fundConfidential,
  pendingCredits,
  twoPartiesSuite,
} from "./support";

const given = twoPartiesSuite("sender", "recipient");

beforeAll(async () => {
  await fundConfidential(given.cluster, given.sender, 100_000_000n);
});

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
    expect(given.cluster.getAccount(context.address)).toBeNull();
  }
}

const lamports = (address: string) => given.cluster.getAccount(address)?.lamports ?? 0n;
/** The sender's confidential transfer of `amount` to the recipient, as the SDK takes it. */
const senderToRecipient = (amount: bigint) => ({
  owner: given.sender.wallet,
  keys: given.sender.keys,
  mint: given.cluster.usdgMint,
  recipient: given.recipient.wallet.address,
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
      const senderBefore = available(given.cluster, given.sender);
      const creditsBefore = pendingCredits(given.cluster, given.recipient);
      const payerBefore = lamports(given.sender.wallet.address);
      const input = senderToRecipient(1_000_001n);

      const error = await expectStepFailure(
        transferConfidential(failingNthSubmission(given.chain, failAt), input),
        step,
      );

      expect(available(given.cluster, given.sender)).toBe(senderBefore);
      expect(pendingCredits(given.cluster, given.recipient)).toBe(creditsBefore);
      expectContextsGone(error);
      expect(payerBefore - lamports(given.sender.wallet.address)).toBeLessThan(FEES_ONLY);

      await transferConfidential(given.chain, input);
      expect(available(given.cluster, given.sender)).toBe(senderBefore - 1_000_001n);
      expect(pendingCredits(given.cluster, given.recipient)).toBe(creditsBefore + 1n);
    },
  );

  it("Given the first proof transaction fails, then the other context that landed is reported closed", async () => {
    const error = await expectStepFailure(
      transferConfidential(failingNthSubmission(given.chain, 1), senderToRecipient(5n)),
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
    const before = available(given.cluster, given.sender);
    const credits = pendingCredits(given.cluster, given.recipient);
    let count = 0;
    const flaky: ChainPort = {
      ...given.chain,
      async sendTransaction(wire, options) {
        count += 1;
        const signature = await given.chain.sendTransaction(wire, options);
        if (count === 4) throw new Error("socket hang up");
        return signature;
      },
    };
    const result = await transferConfidential(flaky, senderToRecipient(11n));
    expect(result.signatures).toHaveLength(4);
    expect(available(given.cluster, given.sender)).toBe(before - 11n);
    expect(pendingCredits(given.cluster, given.recipient)).toBe(credits + 1n);
  });
});

describe("when the clean-up fails too", () => {
  it("Given every submission from the range proof on fails, then contexts are reported orphaned and closeProofContexts recovers them", async () => {
    const before = available(given.cluster, given.sender);
    const payerBefore = lamports(given.sender.wallet.address);
    const error = await expectStepFailure(
      transferConfidential(
        failingSubmissions(given.chain, (n) => n >= 3),
        senderToRecipient(9n),
      ),
      "range_proof",
    );
    expect(available(given.cluster, given.sender)).toBe(before);
    expect(error.contexts.map((context) => context.outcome)).toEqual(["orphaned", "orphaned", "orphaned"]);
    const orphans = error.contexts.map((context) => context.address);
    // The range context was allocated but never verified: it is closed after verifying a zero proof.
    expect(given.cluster.getAccount(orphans[2] ?? "")?.data.every((byte) => byte === 0)).toBe(true);

    const stillOpen = await closeProofContexts(given.chain, {
      payer: given.sender.wallet,
      addresses: orphans,
    });

    expect(stillOpen).toEqual([]);
    for (const address of orphans) expect(given.cluster.getAccount(address)).toBeNull();
    expect(payerBefore - lamports(given.sender.wallet.address)).toBeLessThan(FEES_ONLY);
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
      const before = available(given.cluster, given.sender);
      const publicBefore = confidentialStateOf(given.cluster, given.sender.tokenAccount)?.publicAmount ?? -1n;
      const input = {
        owner: given.sender.wallet,
        keys: given.sender.keys,
        mint: given.cluster.usdgMint,
        amount: 7n,
      };

      const error = await expectStepFailure(
        withdrawConfidential(failingNthSubmission(given.chain, failAt), input),
        step,
      );
      expect(available(given.cluster, given.sender)).toBe(before);
      expectContextsGone(error);

      await withdrawConfidential(given.chain, input);
      expect(available(given.cluster, given.sender)).toBe(before - 7n);
      expect(confidentialStateOf(given.cluster, given.sender.tokenAccount)?.publicAmount).toBe(
        publicBefore + 7n,
      );
    },
  );
});
