import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase58Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { describe, expect, it } from "vitest";
import { simulatedCallsOf } from "./simulated-calls";

const FEE_PAYER = address("G5bDS9cFpxs9Xmyki9fYExtVhWCJEqWjLBtXSTm8EcPS");
const PROGRAM = address("6u4jkEqGD5heqjAxJiCNQMozJVseNB6wZ1nxC2J4iEyP");
const TOKEN_2022 = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const SOURCE = "8mZQq32bLyGan896u6frcQiQ2uJCnfRukGFJ3bPWYxg";
const MINT = "4F6PM96JJxngmHnZLBh9n58RH4aTVNWvDs2nuwrT5BP7";
const DESTINATION = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const AUTHORITY = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";

/** A one-instruction transaction calling PROGRAM, as wire bytes. */
function wire(): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(FEE_PAYER, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: "11111111111111111111111111111111" as never, lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions([{ programAddress: PROGRAM, data: new Uint8Array([1]) }], m),
  );
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));
}

describe("a simulation's inner instructions as the chain port gives them", () => {
  it("Given a parsed TransferChecked CPI (amount a decimal string), When normalized, Then it is the Token program's exact bytes and accounts, keyed after the static keys", () => {
    const answer = {
      innerInstructions: [
        {
          index: 0,
          instructions: [
            {
              program: "spl-token-2022",
              programId: TOKEN_2022,
              parsed: {
                type: "transferChecked",
                info: {
                  source: SOURCE,
                  mint: MINT,
                  destination: DESTINATION,
                  authority: AUTHORITY,
                  tokenAmount: { amount: "3000000", decimals: 6, uiAmount: 3, uiAmountString: "3" },
                },
              },
              stackHeight: 2,
            },
          ],
        },
      ],
    };

    const { innerInstructions, accountKeys } = simulatedCallsOf(answer, wire(), "value");

    expect(accountKeys.slice(0, 2)).toEqual([FEE_PAYER, PROGRAM]);
    const [call] = innerInstructions[0]?.instructions ?? [];
    expect(accountKeys[call?.programIdIndex ?? -1]).toBe(TOKEN_2022);
    expect(call?.accounts.map((at) => accountKeys[at])).toEqual([SOURCE, MINT, DESTINATION, AUTHORITY]);
    expect([...(call?.data ?? [])]).toEqual([12, 0xc0, 0xc6, 0x2d, 0, 0, 0, 0, 0, 6]);
  });

  it("Given an unparsed CPI and a parsed one of another kind, When normalized, Then the first keeps its accounts and data and the second its program only", () => {
    const answer = {
      innerInstructions: [
        {
          index: 0,
          instructions: [
            {
              programId: PROGRAM,
              accounts: [SOURCE],
              data: getBase58Decoder().decode(new Uint8Array([7, 8])),
              stackHeight: 2,
            },
            {
              program: "system",
              programId: "11111111111111111111111111111111",
              parsed: { type: "transfer", info: {} },
            },
          ],
        },
      ],
    };

    const { innerInstructions, accountKeys } = simulatedCallsOf(answer, wire(), "value");

    const [raw, parsed] = innerInstructions[0]?.instructions ?? [];
    expect(raw?.accounts.map((at) => accountKeys[at])).toEqual([SOURCE]);
    expect([...(raw?.data ?? [])]).toEqual([7, 8]);
    expect(accountKeys[parsed?.programIdIndex ?? -1]).toBe("11111111111111111111111111111111");
    expect(parsed?.accounts).toEqual([]);
    expect(parsed?.data.length).toBe(0);
  });

  it("Given no inner instructions (null), When normalized, Then there are none and the keys are the static ones", () => {
    expect(simulatedCallsOf({ innerInstructions: null }, wire(), "value")).toEqual({
      innerInstructions: [],
      accountKeys: [FEE_PAYER, PROGRAM],
    });
  });
});
