/**
 * ApplyPendingBalance: pending -> available. Token-2022 adds the pending ciphertexts to the
 * available one itself; the owner supplies the new AE copy of the available balance, so the SDK
 * must know the pending amount: it decrypts the pending lo/hi halves (ElGamal, ~0.3 s each) only
 * when credits are pending, and starts from the exact available balance (balance.ts).
 */
import type { TransactionSigner } from "@solana/kit";
import { getApplyConfidentialPendingBalanceInstruction } from "@solana-program/token-2022";
import type { ChainPort } from "../chain/chain-port";
import { runExclusive } from "./account-queue";
import { MAX_U64 } from "./amounts";
import { availableBalance, decryptPendingBalance } from "./balance";
import { ConfidentialError } from "./errors";
import type { ConfidentialKeyset } from "./keys";
import {
  type ConfidentialAccountState,
  findTokenAccount,
  readRequiredConfidentialState,
} from "./token-account";
import { signTransaction, submit } from "./transactions";

export interface ApplyPendingBalanceInput {
  readonly owner: TransactionSigner;
  readonly mint: string;
  readonly keys: ConfidentialKeyset;
  readonly payer?: TransactionSigner;
}

/**
 * Applies the owner's pending balance. Returns `signature: null` when nothing is pending. The
 * result carries no amount (amounts leave the SDK only through explicit balance reads).
 */
export async function applyPendingBalance(
  chain: ChainPort,
  input: ApplyPendingBalanceInput,
): Promise<{ readonly signature: string | null }> {
  const tokenAccount = await findTokenAccount(input.owner.address, input.mint);
  return runExclusive(chain, tokenAccount, async () => {
    const state = await readRequiredConfidentialState(chain, tokenAccount);
    if (state.pendingBalanceCreditCounter === 0n) return { signature: null };
    const transaction = await signTransaction({
      step: "apply_pending_balance",
      feePayer: input.payer ?? input.owner,
      blockhash: await chain.getLatestBlockhash(),
      instructions: [applyPendingBalanceInstruction(state, input.keys, input.owner)],
    });
    return { signature: await submit(chain, transaction) };
  });
}

/**
 * The ApplyPendingBalance instruction for `state` as read: its credit counter and the AE copy of
 * available + pending. Exposed for callers that batch it; a credit landing between the read and
 * the apply is tolerated (see balance.ts `availableBalance`).
 */
export function applyPendingBalanceInstruction(
  state: ConfidentialAccountState,
  keys: ConfidentialKeyset,
  owner: TransactionSigner,
) {
  const newAvailable = availableBalance(state, keys) + decryptPendingBalance(state, keys);
  if (newAvailable > MAX_U64) throw new ConfidentialError("invalid_amount", "the balance would exceed u64");
  return getApplyConfidentialPendingBalanceInstruction({
    token: state.address,
    authority: owner,
    expectedPendingBalanceCreditCounter: state.pendingBalanceCreditCounter,
    newDecryptableAvailableBalance: keys.ae.encrypt(newAvailable).toBytes(),
  });
}
