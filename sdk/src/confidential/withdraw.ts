/**
 * Withdraw: available confidential balance -> public balance. The amount becomes public (it lands
 * in the public balance); the remaining balance stays private: an equality proof ties the new
 * available ciphertext (available - amount*G) to a commitment, a U64 range proof shows it is not
 * negative. Same context-account machinery and failure guarantees as a transfer.
 */
import { address, type TransactionSigner } from "@solana/kit";
import { getConfidentialWithdrawInstruction } from "@solana-program/token-2022";
import type { ChainPort } from "../chain/chain-port";
import { runExclusive } from "./account-queue";
import { assertAmount, MAX_U64 } from "./amounts";
import { availableBalance } from "./balance";
import type { ConfidentialKeyset } from "./keys";
import { runWithProofContexts } from "./proof-contexts";
import { findTokenAccount, readConfidentialMint, readRequiredConfidentialState } from "./token-account";
import { buildWithdrawProofs, withdrawContextProofs } from "./withdraw-proofs";

export interface WithdrawInput {
  readonly owner: TransactionSigner;
  readonly keys: ConfidentialKeyset;
  readonly mint: string;
  readonly amount: bigint;
  readonly payer?: TransactionSigner;
}

/** Moves `amount` from the owner's available confidential balance to its public balance. */
export async function withdrawConfidential(
  chain: ChainPort,
  input: WithdrawInput,
): Promise<{ readonly signatures: readonly string[] }> {
  assertAmount(input.amount, MAX_U64);
  const tokenAccount = await findTokenAccount(input.owner.address, input.mint);
  return runExclusive(chain, tokenAccount, async () => {
    // Read at once; a bad mint is reported only after the account and amount checks, as it always was.
    const mintRead = readConfidentialMint(chain, input.mint);
    mintRead.catch(() => undefined);
    const state = await readRequiredConfidentialState(chain, tokenAccount);
    const proofs = buildWithdrawProofs({
      keys: input.keys,
      availableCiphertext: state.availableBalance,
      availableBalance: availableBalance(state, input.keys),
      amount: input.amount,
    });
    const { decimals } = await mintRead;
    return runWithProofContexts({
      chain,
      payer: input.payer ?? input.owner,
      proofs: withdrawContextProofs(proofs),
      finalStep: "withdraw",
      finalInstructions: (contexts) => [
        getConfidentialWithdrawInstruction({
          token: tokenAccount,
          mint: address(input.mint),
          equalityRecord: contexts.get("equality_proof"),
          rangeRecord: contexts.get("range_proof"),
          authority: input.owner,
          amount: input.amount,
          decimals,
          newDecryptableAvailableBalance: proofs.newDecryptableAvailableBalance,
          equalityProofInstructionOffset: 0,
          rangeProofInstructionOffset: 0,
        }),
      ],
    });
  });
}
