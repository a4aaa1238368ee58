import { TransactionExpired } from "@cpay/sdk/chain";
import { ConfidentialError } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { ChainFailure, ExpiredBeforeLanding } from "../chain/send-instructions";
import type { ServiceContext } from "../service-context";
import { MAX_SUBMISSION_ATTEMPTS, withResubmission } from "./resubmission";
import type { Sender } from "./sender";
import type { Submission, TransferPlan } from "./transfer-plan";

const service = { logger: { warn: () => undefined } } as unknown as ServiceContext;
const owner = { kind: "owner" } as Sender;
const agent = { kind: "agent" } as Sender;
const plan = (confidential: boolean) => ({ id: "tr_x", confidential }) as TransferPlan;
const landed: Submission = { outcome: "executed", signature: "s", signatures: ["s"] };
const expiredStep = () =>
  new ConfidentialError("step_failed", "transfer did not land", {
    step: "transfer",
    cause: new TransactionExpired("s"),
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

  it("Given an agent's public transfer that expired, Then it is resubmitted (its record's receipt), but an agent's confidential one never is (no receipt)", async () => {
    const publicOne = scripted([() => new ExpiredBeforeLanding("expired")]);
    await withResubmission(service, { sender: agent, plan: plan(false) }, publicOne.submitOnce);
    expect(publicOne.calls.count).toBe(2);
    const confidentialOne = scripted([expiredStep]);
    await expect(
      withResubmission(service, { sender: agent, plan: plan(true) }, confidentialOne.submitOnce),
    ).rejects.toBeInstanceOf(ConfidentialError);
    expect(confidentialOne.calls.count).toBe(1);
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
