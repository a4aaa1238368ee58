/**
 * The steps of connecting an agent to an MCP host, each one request or one derivation:
 * - a new agent, in the custody its server needs: `self` for the local server (its signer secret
 *   comes once, in this answer, and nowhere else), `service` for the remote one;
 * - the agent's own API key, issued by `POST /v1/keys` with the agent's `account_id` (shown once);
 * - the agent's confidential secret, derived here from the owner's unlocked secret
 *   (`@cpay/sdk/sealed` `exportAgentSecret`): it never leaves the page except in the configuration
 *   the owner copies.
 */
import { exportAgentSecret, importAccountSecret } from "@cpay/sdk/sealed";
import { api, newIdempotencyKey } from "../api/client";
import type { Agent } from "../api/types";
import type { Unlocked } from "../state";

/** Which of cpay's MCP servers the agent's host will run or reach. */
export type McpServerKind = "local" | "remote";

/** The custody each server works with: the local server signs with the agent's own key. */
export const CUSTODY_OF: Readonly<Record<McpServerKind, Agent["custody"]>> = {
  local: "self",
  remote: "service",
};

export interface CreatedForConnection {
  readonly agent: Agent;
  /** Self custody: the signer's base58 seed, given this once. Null for service custody. */
  readonly signerSecret: string | null;
}

/**
 * Creates the agent. `idempotencyKey`: one per intended agent, so a retry after a lost answer does
 * not create a second one; the replay carries no signer secret, which is then said plainly.
 */
export async function createAgentFor(
  server: McpServerKind,
  input: { readonly name: string; readonly policy: Record<string, unknown> },
  idempotencyKey: string,
): Promise<CreatedForConnection> {
  const created = await api<Agent & { signer_secret: string | null; secret_already_delivered?: true }>(
    "POST",
    "/v1/accounts/me/agents",
    {
      body: { name: input.name, custody: CUSTODY_OF[server], spend_policy: input.policy },
      idempotencyKey,
    },
  );
  if (server === "local" && created.signer_secret === null) {
    throw new Error(
      `${created.handle} exists, but its signer secret went out in an earlier answer this page did not receive. Connect a new agent under another name.`,
    );
  }
  const { signer_secret, secret_already_delivered: _replayed, ...agent } = created;
  return { agent, signerSecret: signer_secret };
}

/** A fresh API key of the agent's own, named for the connection; the value is shown once. */
export async function issueAgentKey(agent: Agent, server: McpServerKind): Promise<string> {
  const issued = await api<{ api_key: string | null }>("POST", "/v1/keys", {
    body: { name: `MCP ${server} server`, account_id: agent.account_id },
    idempotencyKey: newIdempotencyKey(),
  });
  // A fresh Idempotency-Key is never a replay, so the value is there.
  if (issued.api_key === null) throw new Error("The service issued the key without its value. Try again.");
  return issued.api_key;
}

/** The agent's confidential secret (export format), derived in this page from the owner's. */
export function agentConfidentialSecret(unlocked: Unlocked, agent: Agent): string {
  const ownerSecret = importAccountSecret(unlocked.exported);
  try {
    return exportAgentSecret(ownerSecret, agent.handle);
  } finally {
    ownerSecret.fill(0);
  }
}
