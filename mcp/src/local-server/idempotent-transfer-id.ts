/**
 * The transfer id a payment's idempotency key stands for: 16 bytes of SHA-256 over the agent's
 * address and the key. The program carries the id in its events and the service records one
 * transfer per id (the relay refuses an id it has seen), so however often a call with the same key
 * is repeated — after a crash, a timeout, a restart of this server — it names the same transfer and
 * can pay only once. The key is the agent's: another agent's same key names another transfer.
 */
import { createHash } from "node:crypto";
import { idFromBytes } from "@cpay/sdk/api";

export interface IdempotentTransferId {
  /** The 16 bytes the program carries. */
  readonly bytes: Uint8Array;
  /** The `tr_...` id the service names it by. */
  readonly id: string;
}

export function idempotentTransferId(agent: string, idempotencyKey: string): IdempotentTransferId {
  const bytes = new Uint8Array(
    createHash("sha256").update(`cpay mcp pay\n${agent}\n${idempotencyKey}`).digest().subarray(0, 16),
  );
  return { bytes, id: idFromBytes("tr", bytes) };
}
