import { describe, expect, it } from "vitest";
import { deriveAgentConfidentialSecret, deriveConfidentialKeys } from "../confidential/keys";
import { type AgentBudgetAnswer, agentBudgetBinding, remainingBudgetOf } from "./agent-budget";
import { sealAmountToViewer } from "./seal-to-viewer";
import { deriveViewingKeys } from "./viewing-keys";

const ownerSecret = new Uint8Array(32).fill(11);
const owner = deriveViewingKeys(ownerSecret);
const agentKeys = deriveConfidentialKeys(deriveAgentConfidentialSecret(ownerSecret, "alice/bot"));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A budget answer as the service builds it: P sealed to the owner, S as the chain's bytes (zk-sdk). */
function answer(input: {
  publicSpent: bigint;
  confidential?: { total: bigint; decryptableTotal?: bigint };
  daily?: number;
  perTransaction?: number;
}): AgentBudgetAnswer {
  const { confidential } = input;
  return {
    account_id: "acct_bot",
    handle: "@alice/bot",
    day: "2026-11-26",
    daily_limit_usdg: input.daily ?? 100,
    per_transaction_limit_usdg: input.perTransaction ?? 25.5,
    public_spent_sealed: sealAmountToViewer({
      amount: input.publicSpent,
      viewerPubkey: owner.elgamalPubkey,
      boundTo: agentBudgetBinding("acct_bot", "2026-11-26"),
    }),
    confidential_spent:
      confidential === undefined
        ? null
        : {
            ciphertext: b64(agentKeys.elgamal.pubkey().encryptU64(confidential.total).toBytes()),
            decryptable: b64(
              agentKeys.ae.encrypt(confidential.decryptableTotal ?? confidential.total).toBytes(),
            ),
            elgamal_pubkey: b64(agentKeys.elgamalPubkey),
          },
  };
}

describe("an agent's remaining budget today, read in the owner's browser", () => {
  it("Given public and confidential spend today, then daily = limit - P - S and perTransaction = min(limit, daily)", () => {
    const budget = answer({ publicSpent: 30_000_000n, confidential: { total: 50_250_000n } });
    expect(remainingBudgetOf({ budget, ownerSecret })).toEqual({
      daily: 19_750_000n,
      perTransaction: 19_750_000n,
    });
  });

  it("Given no spend, then the full limits; the per-transaction limit below the daily one is the largest transfer", () => {
    expect(remainingBudgetOf({ budget: answer({ publicSpent: 0n }), ownerSecret })).toEqual({
      daily: 100_000_000n,
      perTransaction: 25_500_000n,
    });
  });

  it("Given spend above the limit (a limit lowered after spending), then 0 left, never negative", () => {
    const budget = answer({ publicSpent: 80_000_000n, confidential: { total: 40_000_000n } });
    expect(remainingBudgetOf({ budget, ownerSecret })).toEqual({ daily: 0n, perTransaction: 0n });
  });

  it("Given an AE copy that says another total than the ciphertext holds, then spend_mismatch (no guessing)", () => {
    const budget = answer({
      publicSpent: 0n,
      confidential: { total: 5_000_000n, decryptableTotal: 4_000_000n },
    });
    expect(() => remainingBudgetOf({ budget, ownerSecret })).toThrow(
      expect.objectContaining({ code: "spend_mismatch" }),
    );
  });

  it("Given an AE copy altered in one byte, then spend_mismatch", () => {
    const budget = answer({ publicSpent: 0n, confidential: { total: 5_000_000n } });
    const spent = budget.confidential_spent;
    if (spent === null) throw new Error("the answer has a confidential spend");
    const bytes = Buffer.from(spent.decryptable, "base64");
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    const altered = {
      ...budget,
      confidential_spent: { ...spent, decryptable: b64(bytes) },
    };
    expect(() => remainingBudgetOf({ budget: altered, ownerSecret })).toThrow(
      expect.objectContaining({ code: "spend_mismatch" }),
    );
  });

  it("Given another owner's secret, then not_yours; an envelope moved to another day or agent is malformed", () => {
    const budget = answer({ publicSpent: 1n, confidential: { total: 1n } });
    expect(() => remainingBudgetOf({ budget, ownerSecret: new Uint8Array(32).fill(12) })).toThrow(
      expect.objectContaining({ code: "not_yours" }),
    );
    for (const moved of [
      { ...budget, day: "2026-11-27" },
      { ...budget, account_id: "acct_other" },
    ]) {
      expect(() => remainingBudgetOf({ budget: moved, ownerSecret })).toThrow(
        expect.objectContaining({ code: "malformed" }),
      );
    }
  });

  it("Given a confidential spend under another agent's key, then not_yours", () => {
    const budget = { ...answer({ publicSpent: 0n, confidential: { total: 1n } }), handle: "@alice/other" };
    expect(() => remainingBudgetOf({ budget, ownerSecret })).toThrow(
      expect.objectContaining({ code: "not_yours" }),
    );
  });
});
