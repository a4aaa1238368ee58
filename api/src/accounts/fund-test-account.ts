/**
 * The test cluster's USDG faucet (admin CLI `fund`, start-up demo accounts): mints USDG into the
 * account's public token balance, then moves `confidential` of it into the confidential balance
 * (deposit + apply), so both kinds of transfer have funds. Refused for anything but the test
 * cluster: there is no faucet on mainnet-beta.
 */

import type { AccountRow } from "@cpay/ledger";
import { applyAgentPendingBalance, depositAgentConfidential } from "@cpay/sdk/agent-confidential";
import { applyPendingBalance, depositConfidential } from "@cpay/sdk/confidential";
import type { UsdgFaucet } from "../chain/usdg-faucet";
import type { ServiceContext } from "../core/service-context";
import { confidentialKeysOf, walletSignerOf } from "../vault/account-secrets";
import { agentAuthorityOf } from "../vault/agent-authority";

/** Funds `account` from `faucet` (see the file doc); the deposit and apply go through `service.chain`. */
export async function fundTestAccount(
  service: ServiceContext,
  faucet: UsdgFaucet,
  account: AccountRow,
  amounts: { readonly confidential: bigint; readonly public: bigint },
): Promise<void> {
  const total = amounts.confidential + amounts.public;
  if (amounts.confidential < 0n || amounts.public < 0n || total === 0n) {
    throw new RangeError("fund a positive amount (confidential and public parts are each >= 0)");
  }
  const mint = service.chain.usdgMint;
  await faucet.mintUsdgToOwner(account.publicKey, total);
  if (amounts.confidential === 0n) return;
  const keys = await confidentialKeysOf(service, account);
  if (account.type === "agent") {
    const authority = await agentAuthorityOf(service, account);
    const common = { authority, agent: account.publicKey, mint, payer: service.feePayer };
    await depositAgentConfidential(service.chain, { ...common, amount: amounts.confidential });
    await applyAgentPendingBalance(service.chain, { ...common, keys });
    return;
  }
  const owner = await walletSignerOf(service, account.id);
  await depositConfidential(service.chain, {
    owner,
    mint,
    amount: amounts.confidential,
    payer: service.feePayer,
  });
  await applyPendingBalance(service.chain, { owner, mint, keys, payer: service.feePayer });
}
