/**
 * The issuer's side of a mint that does not approve confidential accounts by itself
 * (`auto_approve_new_accounts: false`, as Paxos' USDG on mainnet): the mint's confidential-transfer
 * authority approves one owner's configured account with Token-2022's
 * `ConfidentialTransferInstruction::ApproveAccount`. Until then the account can hold and move public
 * tokens but can neither receive nor send confidentially (`confidentialReadiness` says
 * `not_approved`). On a real cluster only the issuer holds that authority; the localnet's is a
 * labelled key (its approve tool uses this).
 */
import { address, type TransactionSigner } from "@solana/kit";
import { getApproveConfidentialTransferAccountInstruction } from "@solana-program/token-2022";
import { awaitLanding } from "../chain/await-landing";
import type { ChainPort } from "../chain/chain-port";
import { signTransactionToWire } from "../chain/sign-transaction";
import { readinessOf } from "./account-setup";
import { findTokenAccount, readTokenAccount } from "./token-account";

export interface ApproveConfidentialAccountInput {
  /** The mint's confidential-transfer authority (the issuer). */
  readonly authority: TransactionSigner;
  /** The wallet whose associated token account is approved. */
  readonly owner: string;
  readonly mint: string;
  /** Pays the fee; defaults to the authority. */
  readonly payer?: TransactionSigner;
}

/**
 * Approves `owner`'s configured confidential account. Returns the signature, or null when the
 * account was already approved (nothing sent). Throws when there is no configured account, or the
 * approval failed or did not land.
 */
export async function approveConfidentialAccount(
  chain: ChainPort,
  input: ApproveConfidentialAccountInput,
): Promise<{ readonly tokenAccount: string; readonly signature: string | null }> {
  const tokenAccount = await findTokenAccount(input.owner, input.mint);
  const readiness = readinessOf(await readTokenAccount(chain, tokenAccount));
  if (readiness === "no_token_account" || readiness === "not_configured") {
    throw new Error(`${tokenAccount} has no confidential configuration to approve (${readiness})`);
  }
  if (readiness !== "not_approved") return { tokenAccount, signature: null };
  const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
  const { signature, wire } = await signTransactionToWire({
    feePayer: input.payer ?? input.authority,
    instructions: [
      getApproveConfidentialTransferAccountInstruction({
        token: tokenAccount,
        mint: address(input.mint),
        authority: input.authority,
      }),
    ],
    blockhash,
    lastValidBlockHeight,
  });
  await chain.sendTransaction(wire, { preflight: true });
  const status = await awaitLanding(chain, signature, blockhash);
  if (status === null)
    throw new Error(`the approval of ${tokenAccount} did not land before its blockhash expired`);
  if (status.err !== null)
    throw new Error(`the approval of ${tokenAccount} failed: ${JSON.stringify(status.err)}`);
  return { tokenAccount, signature };
}
