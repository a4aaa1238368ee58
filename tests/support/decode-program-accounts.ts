/**
 * Reads every account the agent-policy program owns the way clients do: identified by its
 * discriminator and decoded by the Codama-generated decoder, at exactly its type's size; a Policy
 * also through the SDK's `policyParamsFromAccount` (counts and pattern slots). Returns what could
 * not be read, so a suite can assert the program never leaves an account clients cannot read.
 */

import type { EmbeddedCluster } from "@cpay/localnet/cluster";
import {
  AgentPolicyAccount,
  getAgentDecoder,
  getAgentSize,
  getConfigDecoder,
  getConfigSize,
  getHandleDecoder,
  getHandleSize,
  getPendingTransactionDecoder,
  getPendingTransactionSize,
  getPolicyDecoder,
  getPolicySize,
  getReceiptDecoder,
  getReceiptSize,
  identifyAgentPolicyAccount,
  policyParamsFromAccount,
} from "@cpay/sdk";

const READERS: Record<AgentPolicyAccount, { size: number; read: (data: Uint8Array) => unknown }> = {
  [AgentPolicyAccount.Config]: { size: getConfigSize(), read: (data) => getConfigDecoder().decode(data) },
  [AgentPolicyAccount.Handle]: { size: getHandleSize(), read: (data) => getHandleDecoder().decode(data) },
  [AgentPolicyAccount.Agent]: { size: getAgentSize(), read: (data) => getAgentDecoder().decode(data) },
  [AgentPolicyAccount.Policy]: {
    size: getPolicySize(),
    read: (data) => policyParamsFromAccount(getPolicyDecoder().decode(data)),
  },
  [AgentPolicyAccount.PendingTransaction]: {
    size: getPendingTransactionSize(),
    read: (data) => getPendingTransactionDecoder().decode(data),
  },
  [AgentPolicyAccount.Receipt]: { size: getReceiptSize(), read: (data) => getReceiptDecoder().decode(data) },
};

/** One line per program-owned account that the generated client cannot read; empty when all can. */
export function unreadableProgramAccounts(cluster: EmbeddedCluster): string[] {
  const problems: string[] = [];
  for (const account of cluster.getProgramAccounts(cluster.programId)) {
    try {
      const type = identifyAgentPolicyAccount(account.data);
      const reader = READERS[type];
      if (account.data.length !== reader.size) {
        problems.push(
          `${account.address}: ${AgentPolicyAccount[type]} of ${account.data.length} bytes, not ${reader.size}`,
        );
        continue;
      }
      reader.read(account.data);
    } catch (error) {
      problems.push(`${account.address}: ${String(error)}`);
    }
  }
  return problems;
}
