/**
 * Who the service signs with for an agent's own confidential account (deposit, applying incoming
 * credits): the program accepts the agent's signer or its owner. For a self-custody agent the
 * service no longer has the signer, so it uses the owner's wallet, which it holds — the agent keeps
 * receiving without ever needing SOL, and its spending stays its own.
 */

import type { AccountRow } from "@cpay/ledger";
import type { KeyPairSigner } from "@solana/kit";
import type { ServiceContext } from "../core/service-context";
import { agentSignerOf, walletSignerOf } from "./account-secrets";

export function agentAuthorityOf(service: ServiceContext, agent: AccountRow): Promise<KeyPairSigner> {
  if (agent.agentCustody !== "self") return agentSignerOf(service, agent.id);
  if (agent.ownerAccountId === null) throw new Error(`agent ${agent.id} has no owner`);
  return walletSignerOf(service, agent.ownerAccountId);
}
