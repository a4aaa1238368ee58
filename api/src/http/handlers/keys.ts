/**
 * `/v1/keys`: the account's API keys, managed from a dashboard session (issue-key.ts,
 * manage-keys.ts); a key may also be issued to one of the account's agents.
 */

import { loadOwnedAgent } from "../../agents/agent-lookup";
import { issueApiKey } from "../../keys/issue-key";
import { type KeyView, keyOfAccount, listApiKeys, revokeAccountKey } from "../../keys/manage-keys";
import type { Handlers } from "../mount-routes";

export const keyHandlers: Pick<Handlers, "createKey" | "listKeys" | "revokeKey"> = {
  createKey: async ({ service, caller, body, idempotency }) => {
    // The key of one of the owner's agents (the owner connecting it, e.g. to an MCP host), or the
    // owner's own; another owner's agent is 403 and an unknown one 404, as on the agent routes.
    const holder =
      body.account_id === undefined
        ? caller.account
        : await loadOwnedAgent(service, caller.account, body.account_id);
    // A session's keys belong to its environment: a test session makes svc_test_ keys.
    const issued = await issueApiKey(
      service,
      { accountId: holder.id, name: body.name, environment: service.environment },
      idempotency ? (tx, id) => idempotency.bindResourceIn(tx, id) : undefined,
    );
    const key = (await keyOfAccount(service, holder.id, issued.id)) as KeyView;
    return { key: asContract(key), api_key: issued.value };
  },
  listKeys: async ({ service, caller }) => ({
    keys: (await listApiKeys(service, caller.account.id)).map(asContract),
  }),
  revokeKey: async ({ service, caller, params }) =>
    asContract(await revokeAccountKey(service, caller.account.id, params.key_id)),
};

function asContract(view: KeyView) {
  return { ...view, environment: view.environment as "test" | "live" };
}
