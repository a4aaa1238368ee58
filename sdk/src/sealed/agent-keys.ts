/**
 * An agent's keys, derived in the owner's browser from the owner's secret and the agent's handle:
 * the same HKDF as `@cpay/sdk/confidential` `deriveAgentConfidentialSecret` (keys.ts),
 * HKDF-SHA256(ikm = owner secret, salt "", info "cpay/confidential/agent/v1" || 0x00 || handle,
 * L 32), then `deriveViewingKeys`. The service derives the same agent secret to prove the agent's
 * spends; the owner reads the agent's amounts, and hands a self-custody agent its secret (exported
 * here, never sent to the service), without the service ever handing an agent secret out.
 */
import { hkdf } from "@noble/hashes/hkdf";
import { sha256 } from "@noble/hashes/sha2";
import { SealedError } from "./errors";
import { deriveViewingKeys, exportAccountSecret, type ViewingKeys } from "./viewing-keys";

const AGENT_SECRET_KDF_INFO = "cpay/confidential/agent/v1";
const SECRET_LENGTH = 32;

/**
 * The viewing keys of the agent `agentHandle` owned by the holder of `ownerSecret`. The handle is
 * `owner/name`, the form the SDK's derivation takes; the API's `@owner/name` is accepted and read
 * without its `@` (the service derives from that form too). Byte-identical to
 * `deriveConfidentialKeys(deriveAgentConfidentialSecret(ownerSecret, "owner/name"))`.
 */
export function deriveAgentViewingKeys(ownerSecret: Uint8Array, agentHandle: string): ViewingKeys {
  return deriveViewingKeys(agentSecret(ownerSecret, agentHandle));
}

/**
 * The agent's confidential secret in the export format (what a self-custody agent's process takes
 * as `CPAY_AGENT_CONFIDENTIAL_SECRET`), for the agent `agentHandle` (`owner/name` or `@owner/name`)
 * of the holder of `ownerSecret`. Byte-identical to `@cpay/sdk/confidential`
 * `exportConfidentialSecret(deriveAgentConfidentialSecret(ownerSecret, "owner/name"))`.
 */
export function exportAgentSecret(ownerSecret: Uint8Array, agentHandle: string): string {
  const secret = agentSecret(ownerSecret, agentHandle);
  try {
    return exportAccountSecret(secret);
  } finally {
    secret.fill(0);
  }
}

function agentSecret(ownerSecret: Uint8Array, agentHandle: string): Uint8Array {
  if (!(ownerSecret instanceof Uint8Array) || ownerSecret.length !== SECRET_LENGTH)
    throw new SealedError("invalid_secret", `the owner's secret must be ${SECRET_LENGTH} bytes`);
  const handle = agentHandle.startsWith("@") ? agentHandle.slice(1) : agentHandle;
  const info = new TextEncoder().encode(`${AGENT_SECRET_KDF_INFO}\u0000${handle}`);
  return hkdf(sha256, ownerSecret, new Uint8Array(0), info, SECRET_LENGTH);
}
