/**
 * What the fee reserve reserves for creating an agent before its row is written
 * (reserve/reserve-scope.ts `prepayReserve`), so that an exhausted budget refuses the creation with
 * nothing changed: `agent_create`'s Agent, Policy and Handle accounts, the agent's token account and
 * its confidential extension, and the fees of the transactions that set them up.
 */
import { getAgentSize, getHandleSize, getPolicySize } from "@cpay/sdk";
import { LAMPORTS_PER_SIGNATURE } from "@cpay/sdk/cluster";
import { CONFIDENTIAL_TOKEN_ACCOUNT_SIZE } from "../reserve/spend-bound";
import type { ServiceContext } from "../service-context";

/** `agent_create` and the account set-up: a few transactions of at most three signatures. */
const CREATION_SIGNATURES = 12n;

export function agentCreationReserveBound(service: ServiceContext): bigint {
  const rent = (space: number) => service.cluster.minimumBalanceForRentExemption(space);
  return (
    LAMPORTS_PER_SIGNATURE * CREATION_SIGNATURES +
    rent(getAgentSize()) +
    rent(getPolicySize()) +
    rent(getHandleSize()) +
    rent(CONFIDENTIAL_TOKEN_ACCOUNT_SIZE)
  );
}
