import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { readExactRequirement } from "./exact-requirement";
import { AgentX402Error } from "./x402-errors";

const NETWORK = "solana:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbr";
const PAY_TO = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
const MINT = "4F6PM96JJxngmHnZLBh9n58RH4aTVNWvDs2nuwrT5BP7";
const FEE_PAYER = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";
const BLOCKHASH = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY";

const requirement = (overrides: Partial<PaymentRequirements> = {}): PaymentRequirements => ({
  scheme: "exact",
  network: NETWORK,
  asset: MINT,
  amount: "1500000",
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { feePayer: FEE_PAYER },
  ...overrides,
});

/** The field `read` refused, or a failure when it did not refuse as unpayable. */
function refusedParam(read: () => unknown): string | undefined {
  try {
    read();
  } catch (error) {
    if (error instanceof AgentX402Error && error.code === "unpayable_requirement") return error.param;
    throw error;
  }
  throw new Error("expected the requirement to be refused");
}

describe("readExactRequirement", () => {
  it("Given a well-formed exact requirement on the agent's network, When read, Then every field comes back typed", () => {
    const read = readExactRequirement(
      requirement({
        extra: {
          feePayer: FEE_PAYER,
          memo: "order 7",
          recentBlockhash: BLOCKHASH,
          lastValidBlockHeight: "99",
        },
      }),
      NETWORK,
    );

    expect(read).toEqual({
      payTo: PAY_TO,
      mint: MINT,
      amount: 1_500_000n,
      feePayer: FEE_PAYER,
      memo: "order 7",
      blockhash: { blockhash: BLOCKHASH, lastValidBlockHeight: 99n },
    });
  });

  it("Given no memo and no blockhash (or a malformed blockhash), When read, Then neither is asked for", () => {
    expect(readExactRequirement(requirement(), NETWORK)).toMatchObject({ memo: null, blockhash: null });
    const junk = requirement({
      extra: { feePayer: FEE_PAYER, memo: "", recentBlockhash: "not base58 0OIl" },
    });
    expect(readExactRequirement(junk, NETWORK)).toMatchObject({ memo: null, blockhash: null });
  });

  it("Given another network or scheme, When read, Then it is refused naming that field", () => {
    expect(
      refusedParam(() => readExactRequirement(requirement(), "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1")),
    ).toBe("network");
    expect(refusedParam(() => readExactRequirement(requirement({ scheme: "upto" }), NETWORK))).toBe("scheme");
  });

  it("Given a malformed payTo, asset, amount, fee payer or memo, When read, Then it is refused naming the field", () => {
    const cases: [Partial<PaymentRequirements>, string][] = [
      [{ payTo: "0xabc" }, "payTo"],
      [{ asset: "USDG" }, "asset"],
      [{ amount: "0" }, "amount"],
      [{ amount: "1.5" }, "amount"],
      [{ amount: "-3" }, "amount"],
      [{ amount: "18446744073709551616" }, "amount"],
      [{ extra: {} }, "extra.feePayer"],
      [{ extra: { feePayer: FEE_PAYER, memo: 7 } }, "extra.memo"],
      [{ extra: { feePayer: FEE_PAYER, memo: "x".repeat(257) } }, "extra.memo"],
    ];
    for (const [overrides, param] of cases) {
      expect(
        refusedParam(() => readExactRequirement(requirement(overrides), NETWORK)),
        param,
      ).toBe(param);
    }
  });
});
