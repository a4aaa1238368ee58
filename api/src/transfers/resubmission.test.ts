import { TransactionExpired } from "@cpay/sdk/chain";
import { ConfidentialError } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { ChainFailure, ExpiredBeforeLanding } from "../chain/send-instructions";
import type { ServiceContext } from "../core/service-context";
import { MAX_SUBMISSION_ATTEMPTS, NeverLandedUnproved, withResubmission } from "./resubmission";
import type { Sender } from "./sender";
import { classifySubmissionFailure } from "./submission-failure";
import type { Submission, TransferPlan } from "./transfer-plan";

const LAST_VALID = 100n;

/**
 * A chain port whose block height at each commitment is fixed, and that knows the signatures in
 * `known`: reads of the finalized proof are counted.
 */
function chainAt(heights: { readonly confirmed: bigint; readonly finalized: bigint }, known: string[] = []) {
  const reads = { finalizedHeight: 0, statuses: 0 };
  const chain = {
    getBlockHeight: async (commitment = "processed") => {
      if (commitment === "finalized") reads.finalizedHeight++;
      return commitment === "finalized" ? heights.finalized : heights.confirmed;
    },
    getSlot: async () => 1n,
    getSignatureStatus: async (signature: string) => {
      reads.statuses++;
      return known.includes(signature)
        ? { slot: 1n, confirmations: null, confirmationStatus: "finalized", err: null }
        : null;
    },
  };
  return { chain, reads };
}

function serviceOn(chain: unknown = chainAt({ confirmed: 0n, finalized: 0n }).chain): ServiceContext {
  const quiet = () => undefined;
  return { chain, logger: { warn: quiet, info: quiet } } as unknown as ServiceContext;
}

const service = serviceOn();
const fastProof = { pollMs: 1, timeoutMs: 50 };
const owner = { kind: "owner" } as Sender;
const agent = { kind: "agent" } as Sender;
const plan = (confidential: boolean) => ({ id: "tr_x", confidential }) as TransferPlan;
const landed: Submission = { outcome: "executed", signature: "s", signatures: ["s"] };
const expiredStep = () =>
  new ConfidentialError("step_failed", "transfer did not land", {
    step: "transfer",
    cause: new TransactionExpired("s", LAST_VALID),
  });

/** A submission failing with `failures` in turn, then landing; counts its calls. */
function scripted(failures: (() => unknown)[]) {
  const calls = { count: 0 };
  const submitOnce = async () => {
    const failure = failures[calls.count++];
    if (failure !== undefined) throw failure();
    return landed;
  };
  return { submitOnce, calls };
}

describe("resubmitting a transfer whose transaction never landed", () => {
  it("Given an owner's transfer that expired twice, Then it is signed again and the third submission lands", async () => {
    const { submitOnce, calls } = scripted([expiredStep, () => new ExpiredBeforeLanding("expired")]);
    expect(await withResubmission(service, { sender: owner, plan: plan(true) }, submitOnce)).toBe(landed);
    expect(calls.count).toBe(3);
  });

  it("Given every submission expires, Then it stops after MAX_SUBMISSION_ATTEMPTS with the expiry", async () => {
    const { submitOnce, calls } = scripted(Array.from({ length: 10 }, () => expiredStep));
    await expect(
      withResubmission(service, { sender: owner, plan: plan(false) }, submitOnce),
    ).rejects.toMatchObject({
      code: "step_failed",
    });
    expect(calls.count).toBe(MAX_SUBMISSION_ATTEMPTS);
  });

  it("Given an agent's public transfer that expired, Then it is resubmitted on the expiry alone (its record's receipt)", async () => {
    const publicOne = scripted([() => new ExpiredBeforeLanding("expired")]);
    await withResubmission(service, { sender: agent, plan: plan(false) }, publicOne.submitOnce);
    expect(publicOne.calls.count).toBe(2);
  });

  it("Given an agent's confidential transfer whose final transaction expired at confirmed but not at finalized, Then it is not resubmitted yet, nor recorded as never landed", async () => {
    // The confirmed height is past the last valid one (awaitLanding's judgment), the finalized one is not
    const { chain, reads } = chainAt({ confirmed: LAST_VALID + 50n, finalized: LAST_VALID });
    const { submitOnce, calls } = scripted([expiredStep]);
    const outcome = withResubmission(
      serviceOn(chain),
      { sender: agent, plan: plan(true) },
      submitOnce,
      fastProof,
    );
    const error = await outcome.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NeverLandedUnproved);
    // ... and its outcome is left to the chain (crash recovery), never recorded as "nothing moved"
    expect(classifySubmissionFailure(error)).toBeNull();
    // Then it waited on the finalized height, never signed again, never read the status as proof
    expect(reads.finalizedHeight).toBeGreaterThan(1);
    expect(reads.statuses).toBe(0);
    expect(calls.count).toBe(1);
  });

  it("Given the finalized height passed its last valid block height and the signature is unknown, Then the agent's confidential transfer is signed again and lands", async () => {
    const { chain } = chainAt({ confirmed: LAST_VALID + 50n, finalized: LAST_VALID + 1n });
    const { submitOnce, calls } = scripted([expiredStep]);
    expect(
      await withResubmission(serviceOn(chain), { sender: agent, plan: plan(true) }, submitOnce, fastProof),
    ).toBe(landed);
    expect(calls.count).toBe(2);
  });

  it("Given the finalized height passed but the cluster knows the signature, Then it is not resubmitted (the chain tells what moved)", async () => {
    const { chain } = chainAt({ confirmed: LAST_VALID + 50n, finalized: LAST_VALID + 1n }, ["s"]);
    const { submitOnce, calls } = scripted([expiredStep]);
    await expect(
      withResubmission(serviceOn(chain), { sender: agent, plan: plan(true) }, submitOnce, fastProof),
    ).rejects.toBeInstanceOf(NeverLandedUnproved);
    expect(calls.count).toBe(1);
  });

  it("Given an agent's confidential transfer that expires on every attempt, each proved, Then it stops after MAX_SUBMISSION_ATTEMPTS with the expiry", async () => {
    const { chain } = chainAt({ confirmed: LAST_VALID + 50n, finalized: LAST_VALID + 1n });
    const { submitOnce, calls } = scripted(Array.from({ length: 10 }, () => expiredStep));
    await expect(
      withResubmission(serviceOn(chain), { sender: agent, plan: plan(true) }, submitOnce, fastProof),
    ).rejects.toBeInstanceOf(ConfidentialError);
    expect(calls.count).toBe(MAX_SUBMISSION_ATTEMPTS);
  });

  it("Given an agent's confidential transfer refused as expired with no transaction to prove, Then it is not resubmitted", async () => {
    const { submitOnce, calls } = scripted([() => new ExpiredBeforeLanding("expired")]);
    await expect(
      withResubmission(serviceOn(), { sender: agent, plan: plan(true) }, submitOnce, fastProof),
    ).rejects.toBeInstanceOf(NeverLandedUnproved);
    expect(calls.count).toBe(1);
  });

  it("Given a failure that is not an expiry (a failed transaction, a refusal), Then it is not resubmitted", async () => {
    const { submitOnce, calls } = scripted([
      () => new ChainFailure("the transaction failed", { Custom: 1 } as never),
    ]);
    await expect(
      withResubmission(service, { sender: owner, plan: plan(false) }, submitOnce),
    ).rejects.toBeInstanceOf(ChainFailure);
    expect(calls.count).toBe(1);
  });
});
