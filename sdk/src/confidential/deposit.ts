/**
 * Deposit: public balance -> pending confidential balance. The amount is public by nature (it
 * leaves the public balance); it becomes spendable after ApplyPendingBalance.
 */
import { address, type TransactionSigner } from "@solana/kit";
import { getConfidentialDepositInstruction } from "@solana-program/token-2022";
import type { ClusterPort } from "../cluster/cluster-port";
import { assertAmount } from "./amounts";
import { ConfidentialError } from "./errors";
import { findTokenAccount, readConfidentialMint, readConfidentialState } from "./token-account";
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
  cluster: ClusterPort,
  input: DepositInput,
): Promise<{ readonly signature: string }> {
  assertAmount(input.amount);
  const tokenAccount = await findTokenAccount(input.owner.address, input.mint);
  if (readConfidentialState(cluster, tokenAccount) === null) {
    throw new ConfidentialError("account_not_confidential_ready", `${tokenAccount} is not configured`);
  }
  const { decimals } = readConfidentialMint(cluster, input.mint);
  const transaction = await signTransaction({
    step: "deposit",
    feePayer: input.payer ?? input.owner,
    blockhash: cluster.getLatestBlockhash(),
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
  return { signature: await submit(cluster, transaction) };
}
