/**
 * The confidential keys a holder derives client-side, as the SDK's users do: an account's from the
 * secret it was given once, an agent's from its owner's secret and the agent's `owner/name` path.
 */
import {
  type ConfidentialKeyset,
  deriveAgentConfidentialSecret,
  deriveConfidentialKeys,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";

/** An account's keys, from its confidential secret (SDK export format). */
export function keysFromSecret(secret: string): ConfidentialKeyset {
  return deriveConfidentialKeys(importConfidentialSecret(secret));
}

/** An agent's keys, as its owner derives them from the owner's own secret: `agentPath` is `owner/name`. */
export function agentKeysFromOwnerSecret(ownerSecret: string, agentPath: string): ConfidentialKeyset {
  return deriveConfidentialKeys(
    deriveAgentConfidentialSecret(importConfidentialSecret(ownerSecret), agentPath),
  );
}
