/**
 * Handing a self-custody agent its signer: the seed is read and deleted from the vault in one
 * transaction and returned (base58) for the creating response only. Afterwards the service cannot
 * sign for the agent's PDA: its transfers go through POST /v1/relay, signed by the agent, and the
 * custodial paths refuse it (`409 agent_self_custody`). The in-process opened-key cache is not
 * trusted to forget: every custodial path checks the row's custody first.
 */

import type { AccountRow } from "@cpay/ledger";
import { getBase58Decoder } from "@solana/kit";
import { and, eq } from "drizzle-orm";
import { ApiError } from "../core/api-error";
import type { ServiceContext } from "../core/service-context";
import { loadSecret } from "../vault/account-secrets";

/** Returns the agent's signer seed (base58) and forgets it; null when it was handed over already. */
export async function handOverSigner(service: ServiceContext, agent: AccountRow): Promise<string | null> {
  const { vaultSecrets } = service.db.tables;
  const seed = await loadSecret(service, agent.id, "agent_signer_seed").catch(() => null);
  if (seed === null) return null;
  const deleted = await service.db.transaction((tx) =>
    tx
      .delete(vaultSecrets)
      .where(and(eq(vaultSecrets.accountId, agent.id), eq(vaultSecrets.kind, "agent_signer_seed")))
      .returning({ accountId: vaultSecrets.accountId }),
  );
  // Another request handed it over between the read and the delete: only one may return it.
  if (deleted.length === 0) return null;
  return getBase58Decoder().decode(seed);
}

/** Refuses a custodial operation for an agent that signs for itself. */
export function requireServiceCustody(agent: AccountRow): void {
  if (agent.type === "agent" && agent.agentCustody === "self") {
    throw new ApiError(
      "agent_self_custody",
      `${agent.handle} signs its own transactions: build them with @cpay/sdk/agent-client and submit them through POST /v1/relay`,
    );
  }
}
