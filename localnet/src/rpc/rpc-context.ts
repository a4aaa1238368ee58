/**
 * What every RPC method handler receives, and the `{context, value}` envelope Solana wraps most
 * answers in.
 *
 * Handlers are synchronous functions over the ClusterPort (which is synchronous itself), so a request
 * is answered atomically against one cluster state: no other request interleaves in between.
 */
import type { ClusterPort, Commitment } from "../cluster/cluster-port";
import { minContextSlotNotReached } from "./json-rpc-errors";
import type { TestClock } from "./methods/test-clock";
import { type Config, optionalU64, readCommitment } from "./params";

/** Reported as `context.apiVersion` and `getVersion["solana-core"]`: the agave line LiteSVM tracks. */
export const API_VERSION = "2.3.0";

export interface MethodContext {
  readonly cluster: ClusterPort;
  /** The cluster's clock for the test-only `localnet_*` methods; absent, they are refused. */
  readonly testClock?: TestClock;
}

/** A JSON-RPC method: validates `params` (throwing RpcError) and returns the `result`. */
export type RpcMethod = (params: unknown, context: MethodContext) => unknown;

export interface ContextSlot {
  readonly commitment: Commitment;
  readonly slot: bigint;
}

/**
 * Resolves `config.commitment` to the slot a validator would answer from, enforcing
 * `config.minContextSlot` (-32016 when the node is behind it, like agave).
 */
export function resolveContextSlot(cluster: ClusterPort, config: Config, fallback?: Commitment): ContextSlot {
  const commitment = readCommitment(config, fallback);
  const slot = cluster.getSlot(commitment);
  const minContextSlot = optionalU64(config, "minContextSlot");
  if (minContextSlot !== undefined && slot < minContextSlot) throw minContextSlotNotReached(slot);
  return { commitment, slot };
}

export function withContext<T>(
  slot: bigint,
  value: T,
): { context: { apiVersion: string; slot: bigint }; value: T } {
  return { context: { apiVersion: API_VERSION, slot }, value };
}
