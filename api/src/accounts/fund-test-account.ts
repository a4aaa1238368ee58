/**
 * The test cluster's USDG faucet (admin CLI `fund`, start-up demo accounts): mints USDG into the
 * account's public token balance, then moves `confidential` of it into the confidential balance
 * (deposit + apply), so both kinds of transfer have funds. Refused for anything but the test
 * cluster: there is no faucet on mainnet-beta.
 */
import { applyAgentPendingBalance, depositAgentConfidential } from "@cpay/sdk/agent-confidential";
import { applyPendingBalance, depositConfidential } from "@cpay/sdk/confidential";
import { agentAuthorityOf } from "../agents/agent-authority";
import type { AccountRow } from "../db/rows";
import type { ServiceContext } from "../service-context";
import { confidentialKeysOf, walletSignerOf } from "../vault/account-secrets";

export async function fundTestAccount(
  service: ServiceContext,
  account: AccountRow,
  amounts: { readonly confidential: bigint; readonly public: bigint },
): Promise<void> {
  const total = amounts.confidential + amounts.public;
  if (amounts.confidential < 0n || amounts.public < 0n || total === 0n) {
    throw new RangeError("fund a positive amount (confidential and public parts are each >= 0)");
  }
  const mint = service.cluster.usdgMint;
  await service.cluster.mintUsdgToOwner(account.publicKey, total);
  if (amounts.confidential === 0n) return;
  const keys = await confidentialKeysOf(service, account);
  if (account.type === "agent") {
    const authority = await agentAuthorityOf(service, account);
    const common = { authority, agent: account.publicKey, mint, payer: service.feePayer };
    await depositAgentConfidential(service.cluster, { ...common, amount: amounts.confidential });
    await applyAgentPendingBalance(service.cluster, { ...common, keys });
    return;
  }
  const owner = await walletSignerOf(service, account.id);
  await depositConfidential(service.cluster, {
    owner,
    mint,
    amount: amounts.confidential,
    payer: service.feePayer,
  });
  await applyPendingBalance(service.cluster, { owner, mint, keys, payer: service.feePayer });
}
