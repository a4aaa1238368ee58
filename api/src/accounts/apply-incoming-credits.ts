/**
 * Moves an account's incoming confidential credits (Token-2022's pending balance) into its
 * available balance before a balance read, so the available-balance ciphertext — the one a
 * client's decryption proof is made against — covers everything received. Owners apply with their
 * wallet; agents through the program (`agent_confidential_apply`) with their agent signer. The fee
 * reserve pays. Nothing pending: no transaction.
 */

import type { AccountRow } from "@cpay/ledger";
import { applyAgentPendingBalance } from "@cpay/sdk/agent-confidential";
import {
  applyPendingBalance,
  type ConfidentialKeyset,
  isConfidentialError,
  readConfidentialState,
} from "@cpay/sdk/confidential";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { reservePayer } from "../reserve/reserve-scope";
import { walletSignerOf } from "../vault/account-secrets";
import { agentAuthorityOf } from "../vault/agent-authority";

/**
 * Applies pending credits of `tokenAccount` (the account's USDG account). An agent with an open
 * confidential hold cannot apply (the hold's proofs were made against its available balance):
 * then the credits stay pending and the read reports them as such. A chain failure is
 * `503 chain_unavailable`.
 */
export async function applyIncomingCredits(
  service: ServiceContext,
  account: AccountRow,
  tokenAccount: string,
  keys: ConfidentialKeyset,
): Promise<void> {
  const state = await readConfidentialState(service.chain, tokenAccount);
  if (state === null || state.pendingBalanceCreditCounter === 0n) return;
  const mint = service.chain.usdgMint;
  try {
    if (account.type === "agent") {
      await applyAgentPendingBalance(service.chain, {
        authority: await agentAuthorityOf(service, account),
        agent: account.publicKey,
        mint,
        keys,
        payer: reservePayer(service),
      });
    } else {
      await applyPendingBalance(service.chain, {
        owner: await walletSignerOf(service, account.id),
        mint,
        keys,
        payer: reservePayer(service),
      });
    }
  } catch (error) {
    if (isConfidentialError(error, "confidential_hold_open")) return;
    if (isConfidentialError(error, "step_failed")) {
      throw new ApiError(
        "chain_unavailable",
        "the cluster refused to apply the account's incoming credits; retry shortly",
      );
    }
    throw error;
  }
}
