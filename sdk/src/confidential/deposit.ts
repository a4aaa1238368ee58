/**
 * Deposit: public balance -> pending confidential balance. The amount is public by nature (it
 * leaves the public balance); it becomes spendable after ApplyPendingBalance.
 */
import { address, type TransactionSigner } from "@solana/kit";
import { getConfidentialDepositInstruction } from "@solana-program/token-2022";
import type { ChainPort } from "../chain/chain-port";
import { assertAmount } from "./amounts";
import { findTokenAccount, readConfidentialMint, readRequiredConfidentialState } from "./token-account";
import { signTransaction, submit } from "./transactions";

export interface DepositInput {
  readonly owner: TransactionSigner;
  readonly mint: string;
  readonly amount: bigint;
  /** Pays the fee; defaults to the owner. */
  readonly payer?: TransactionSigner;
}

/** Moves `amount` of the owner's public balance into its pending confidential balance. */
export async function depositConfidential(
  chain: ChainPort,
  input: DepositInput,
): Promise<{ readonly signature: string }> {
  assertAmount(input.amount);
  const tokenAccount = await findTokenAccount(input.owner.address, input.mint);
  // Read at once; a bad mint is reported only after the account check, as it always was.
  const later = Promise.all([readConfidentialMint(chain, input.mint), chain.getLatestBlockhash()]);
  later.catch(() => undefined);
  await readRequiredConfidentialState(chain, tokenAccount);
  const [{ decimals }, blockhash] = await later;
  const transaction = await signTransaction({
    step: "deposit",
    feePayer: input.payer ?? input.owner,
    blockhash,
    instructions: [
      getConfidentialDepositInstruction({
        token: tokenAccount,
        mint: address(input.mint),
        authority: input.owner,
        amount: input.amount,
        decimals,
      }),
    ],
  });
  return { signature: await submit(chain, transaction) };
}
