/**
 * What the fee reserve reserves for creating an agent before its row is written
 * (reserve/reserve-scope.ts `prepayReserve`), so that an exhausted budget refuses the creation with
 * nothing changed: `agent_create`'s Agent, Policy and Handle accounts, the agent's token account and
 * its confidential extension, and the fees of the transactions that set them up.
 */

import { getAgentSize, getHandleSize, getPolicySize } from "@cpay/sdk";
import { LAMPORTS_PER_SIGNATURE } from "@cpay/sdk/chain";
import type { ServiceContext } from "../core/service-context";
import { CONFIDENTIAL_TOKEN_ACCOUNT_SIZE } from "../reserve/spend-bound";

/** `agent_create` and the account set-up: a few transactions of at most three signatures. */
const CREATION_SIGNATURES = 12n;

export async function agentCreationReserveBound(service: ServiceContext): Promise<bigint> {
  const rents = await Promise.all(
    [getAgentSize(), getPolicySize(), getHandleSize(), CONFIDENTIAL_TOKEN_ACCOUNT_SIZE].map((space) =>
      service.chain.minimumBalanceForRentExemption(space),
    ),
  );
  return rents.reduce((sum, rent) => sum + rent, LAMPORTS_PER_SIGNATURE * CREATION_SIGNATURES);
}
