/**
 * A per-key turn across API processes (coordination/turn.ts): work for one key (an agent handle,
 * an owner's agent count, a hold) runs one at a time in every process sharing the
 * database, so two requests never race each other to the chain and the agent cap's count-then-
 * insert is exact. The database's unique indexes and conditional updates, and the program itself,
 * still keep each outcome single should a turn lapse under a stalled holder.
 */
import { withTurn } from "../coordination/turn";
import type { ServiceContext } from "../core/service-context";

/** Runs `work` after every earlier `runExclusively(service, key, ...)` of any process has settled. */
export function runExclusively<T>(service: ServiceContext, key: string, work: () => Promise<T>): Promise<T> {
  return withTurn(service, `turn:${key}`, work);
}
