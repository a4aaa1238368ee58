/**
 * The spend decision at its boundaries and in the program's order: each rule refuses alone, the
 * earlier rule wins when two would, the HITL threshold holds only strictly above it, and the daily
 * limit counts public and confidential spend of today only (an unreadable confidential spend
 * leaves the daily limit to the program).
 */
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { getPolicyDecoder, getPolicyEncoder, type Policy } from "../generated";
import { type AgentSpendFacts, decideAgentSpend } from "./spend-decision";

const USDG = address("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU");
const OTHER_MINT = address("So11111111111111111111111111111111111111112");
const MERCHANT = address("9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin");
const NOON = 20_522n * 86_400n + 12n * 3_600n;
const TODAY = NOON / 86_400n;

/** Per transaction 100, daily 250, HITL 50; USDG only; `merchant` only; 09:00-17:30 UTC. */
function policy(
  changes: { spentToday?: bigint; dayIndex?: bigint; spendCiphertext?: Uint8Array } = {},
): Policy {
  const name = new Uint8Array(64);
  name.set(new TextEncoder().encode("merchant"));
  const emptySlot = { kind: 0, len: 0, value: new Uint8Array(64) };
  return getPolicyDecoder().decode(
    getPolicyEncoder().encode({
      agent: MERCHANT,
      version: 1,
      activeStartMinute: 540,
      activeEndMinute: 1050,
      perTransactionLimit: 100n,
      dailyLimit: 250n,
      hitlThreshold: 50n,
      approvalWindowSeconds: 3600,
      mintCount: 1,
      patternCount: 1,
      bump: 255,
      padding: new Uint8Array(1),
      dayIndex: changes.dayIndex ?? TODAY,
      spentToday: changes.spentToday ?? 0n,
      updatedAt: 0,
      allowedMints: [USDG, OTHER_MINT, OTHER_MINT, OTHER_MINT],
      recipientPatterns: [{ kind: 0, len: 8, value: name }, ...Array(15).fill(emptySlot)],
      spendCiphertext: changes.spendCiphertext ?? new Uint8Array(64),
      spendPubkey: new Uint8Array(32),
      spendDecryptable: new Uint8Array(36),
      reserved: new Uint8Array(124),
    }),
  );
}

function facts(changes: Partial<AgentSpendFacts> = {}): AgentSpendFacts {
  return {
    policy: policy(),
    agentActive: true,
    confidentialHoldOpen: false,
    unixTime: NOON,
    mint: USDG,
    recipient: { handle: "merchant", destination: MERCHANT, destinationOwner: MERCHANT },
    amount: 10n,
    confidential: false,
    confidentialSpentToday: 0n,
    ...changes,
  };
}

const SPENT_CONFIDENTIALLY = Uint8Array.from({ length: 64 }, () => 0x33);

describe("decideAgentSpend", () => {
  it("Given a spend every rule allows, Then it executes up to the HITL threshold and is held strictly above it", () => {
    expect(decideAgentSpend(facts({ amount: 50n }))).toEqual({ outcome: "executes" });
    expect(decideAgentSpend(facts({ amount: 51n }))).toEqual({ outcome: "held" });
  });

  it("Given one rule broken at a time, Then that rule refuses", () => {
    const refusedBy = (changes: Partial<AgentSpendFacts>) => decideAgentSpend(facts(changes));
    expect(refusedBy({ agentActive: false })).toEqual({ outcome: "refused", rule: "AgentNotActive" });
    expect(refusedBy({ confidentialHoldOpen: true })).toEqual({
      outcome: "refused",
      rule: "ConfidentialHoldOpen",
    });
    expect(refusedBy({ mint: OTHER_MINT })).toEqual({ outcome: "refused", rule: "MintNotAllowed" });
    expect(
      refusedBy({ recipient: { handle: "acme", destination: MERCHANT, destinationOwner: MERCHANT } }),
    ).toEqual({ outcome: "refused", rule: "RecipientNotAllowed" });
    expect(refusedBy({ unixTime: NOON - 4n * 3_600n })).toEqual({
      outcome: "refused",
      rule: "OutsideActiveHours",
    });
    expect(refusedBy({ amount: 101n })).toEqual({ outcome: "refused", rule: "PerTransactionLimitExceeded" });
    expect(refusedBy({ policy: policy({ spentToday: 200n }), amount: 51n })).toEqual({
      outcome: "refused",
      rule: "DailyLimitExceeded",
    });
  });

  it("Given two broken rules, Then the one the program checks first refuses", () => {
    expect(decideAgentSpend(facts({ mint: OTHER_MINT, amount: 101n }))).toEqual({
      outcome: "refused",
      rule: "MintNotAllowed",
    });
  });

  it("Given confidential spend today, Then a public spend is refused and a confidential one counts it toward the daily limit", () => {
    const spent = policy({ spentToday: 100n, spendCiphertext: SPENT_CONFIDENTIALLY });

    expect(decideAgentSpend(facts({ policy: spent }))).toEqual({
      outcome: "refused",
      rule: "PublicSpendAfterConfidential",
    });
    const confidential = { policy: spent, confidential: true, amount: 50n };
    expect(decideAgentSpend(facts({ ...confidential, confidentialSpentToday: 100n }))).toEqual({
      outcome: "executes",
    });
    expect(decideAgentSpend(facts({ ...confidential, confidentialSpentToday: 101n }))).toEqual({
      outcome: "refused",
      rule: "DailyLimitExceeded",
    });
    // Unreadable: the daily limit is left to the program.
    expect(decideAgentSpend(facts({ ...confidential, confidentialSpentToday: null }))).toEqual({
      outcome: "executes",
    });
  });

  it("Given spends counted on an earlier UTC day, Then they count nothing today", () => {
    const yesterday = policy({
      dayIndex: TODAY - 1n,
      spentToday: 250n,
      spendCiphertext: SPENT_CONFIDENTIALLY,
    });

    expect(decideAgentSpend(facts({ policy: yesterday, amount: 100n }))).toEqual({ outcome: "held" });
  });
});
