/**
 * The most a message can cost the fee reserve, from its bytes: every deposit it can make is
 * counted, and an instruction that could move the reserve's lamports another way has no bound.
 */

import { getReceiptSize, getTransferRecordInstructionDataEncoder } from "@cpay/sdk";
import {
  AccountRole,
  type AccountSignerMeta,
  type Address,
  createNoopSigner,
  generateKeyPairSigner,
  type Instruction,
} from "@solana/kit";
import {
  getAssignInstruction,
  getCreateAccountInstruction,
  getTransferSolInstruction,
} from "@solana-program/system";
import { getTransferCheckedInstruction } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { spendBoundOf, UnboundedSpend } from "./spend-bound";
import { unsentTransaction } from "./unsent-transaction.test-support";

const PROGRAM = "AgentPo1icy11111111111111111111111111111111" as Address;
const LOADER = "BPFLoaderUpgradeab1e11111111111111111111111" as Address;
const rentExemptMinimum = (space: number) => BigInt((128 + space) * 6960);
const payer = createNoopSigner("Fee1111111111111111111111111111111111111111" as Address);
const payerMeta: AccountSignerMeta = {
  address: payer.address,
  role: AccountRole.WRITABLE_SIGNER,
  signer: payer,
};
const ctx = { feePayer: payer.address, programId: PROGRAM, rentExemptMinimum };

function messageOf(instructions: readonly Instruction[]) {
  return unsentTransaction(payer, instructions).messageBytes;
}

describe("spendBoundOf", () => {
  it("Given CreateAccounts and a Transfer from the fee payer, Then their lamports and a fee per signature are counted", async () => {
    const [a, b] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    const bound = spendBoundOf(
      messageOf([
        getCreateAccountInstruction({
          payer,
          newAccount: a,
          lamports: 70_490_880n,
          space: 10_000,
          programAddress: LOADER,
        }),
        getCreateAccountInstruction({
          payer,
          newAccount: b,
          lamports: 1_000n,
          space: 0,
          programAddress: LOADER,
        }),
        getTransferSolInstruction({ source: payer, destination: a.address, amount: 5n }),
      ]),
      ctx,
    );
    expect(bound).toEqual({
      feeLamports: 15_000n,
      depositLamports: 70_491_885n,
      // CreateAccount and Transfer lamports may not come back: none of it is an advance.
      advanceLamports: 0n,
      blockhash: "11111111111111111111111111111111",
    });
  });

  it("Given an Associated Token account the fee payer opens, Then its rent (170 bytes) is counted", () => {
    const bound = spendBoundOf(
      messageOf([
        {
          programAddress: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL" as Address,
          accounts: [payerMeta],
          data: new Uint8Array([1]),
        },
      ]),
      ctx,
    );
    expect(bound.depositLamports).toBe(rentExemptMinimum(170));
  });

  it("Given an account-opening fee paid in USDG into the reserve's own token account, Then it adds only its payer's signature, never a deposit", async () => {
    const [owner, source, mint, feeAccount] = await Promise.all([
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner(),
    ]);
    const bound = spendBoundOf(
      messageOf([
        getTransferCheckedInstruction({
          source: source.address,
          mint: mint.address,
          destination: feeAccount.address,
          authority: owner,
          amount: 1_000_000n,
          decimals: 6,
        }),
      ]),
      ctx,
    );
    expect(bound).toMatchObject({ feeLamports: 10_000n, depositLamports: 0n });
  });

  it("Given the fee payer handed to System Assign or to an unknown program, Then there is no bound", async () => {
    expect(() =>
      spendBoundOf(messageOf([getAssignInstruction({ account: payer, programAddress: LOADER })]), ctx),
    ).toThrow(UnboundedSpend);
    const stranger = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;
    expect(() =>
      spendBoundOf(
        messageOf([
          {
            programAddress: stranger,
            accounts: [payerMeta],
            data: new Uint8Array([0]),
          },
        ]),
        ctx,
      ),
    ).toThrow(UnboundedSpend);
  });

  it("Given a receipt and a hold the fee payer pays for, Then their rent is counted, as an advance too; named elsewhere than as their payer, it is counted but is no advance", async () => {
    const record = async (payerSlot: Address) => {
      const accounts = await Promise.all(
        Array.from({ length: 7 }, async () => (await generateKeyPairSigner()).address),
      );
      accounts[2] = payerSlot;
      // The fee payer named in every case (as the receipt's payer, or as the destination).
      if (payerSlot !== payer.address) accounts[4] = payer.address;
      return {
        programAddress: PROGRAM,
        accounts: accounts.map((address) => ({ address, role: AccountRole.WRITABLE })),
        data: getTransferRecordInstructionDataEncoder().encode({
          transferId: new Uint8Array(16),
          confidential: false,
          memo: new Uint8Array(0),
        }),
      };
    };
    const receiptRent = rentExemptMinimum(getReceiptSize());
    const paid = spendBoundOf(messageOf([await record(payer.address)]), ctx);
    expect({ deposit: paid.depositLamports, advance: paid.advanceLamports }).toEqual({
      deposit: receiptRent,
      advance: receiptRent,
    });
    const named = spendBoundOf(messageOf([await record((await generateKeyPairSigner()).address)]), ctx);
    expect({ deposit: named.depositLamports, advance: named.advanceLamports }).toEqual({
      deposit: receiptRent,
      advance: 0n,
    });
  });

  it("Given a priority fee, Then it is counted at the unit limit the message sets", () => {
    const limit = new Uint8Array(5);
    limit[0] = 2;
    new DataView(limit.buffer).setUint32(1, 300_000, true);
    const price = new Uint8Array(9);
    price[0] = 3;
    new DataView(price.buffer).setBigUint64(1, 1_000_000n, true);
    const computeBudget = "ComputeBudget111111111111111111111111111111" as Address;
    const bound = spendBoundOf(
      messageOf([
        { programAddress: computeBudget, data: limit },
        { programAddress: computeBudget, data: price },
      ]),
      ctx,
    );
    expect(bound.feeLamports).toBe(5_000n + 300_000n);
  });
});
