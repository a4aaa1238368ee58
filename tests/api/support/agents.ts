/**
 * Agents for the /v1 agent and approval suites, made through the API itself
 * (`POST /v1/accounts/me/agents`), plus what a suite needs around them: the agent's row, an
 * agent-scoped API key, and reads of the rows the service wrote.
 */
import { type AccountRow, type IssuedKey, issueApiKey } from "@cpay/api";
import type { TAgent, TCreateAgentRequest } from "@cpay/sdk/api";
import { eq } from "drizzle-orm";
import { type ApiWorld, usdg, type WorldAccount } from "../../support/api-world";

/** Per transaction 100, daily 250, HITL 50 USDG; USDG only; any recipient; all day; 24 h window. */
export const TEST_POLICY = {
  daily_limit_usdg: 250,
  per_transaction_limit_usdg: 100,
  hitl_threshold_usdg: 50,
  assets: ["USDG"],
  allowed_recipients: [],
  active_hours: "00:00-00:00",
  approval_window_seconds: 86_400,
} as const satisfies TCreateAgentRequest["spend_policy"];

/** Daily 10, per transaction and HITL 5 USDG, USDG only: a small policy where its limits do not matter. */
export const SMALL_POLICY = {
  daily_limit_usdg: 10,
  per_transaction_limit_usdg: 5,
  hitl_threshold_usdg: 5,
  assets: ["USDG"],
} as const satisfies TCreateAgentRequest["spend_policy"];

export interface WorldAgent {
  readonly agent: TAgent;
  readonly row: AccountRow;
  /** An API key scoped to the agent itself. */
  readonly key: IssuedKey;
}

/** Creates the agent `name` of `owner` through the API and issues it a key. */
export async function createTestAgent(
  world: ApiWorld,
  owner: WorldAccount,
  name: string,
  spendPolicy: TCreateAgentRequest["spend_policy"] = TEST_POLICY,
): Promise<WorldAgent> {
  // The create response adds `signer_secret` (null: the service keeps this agent's signer).
  const { signer_secret: _kept, ...agent } = await owner.client.call("createAgent", {
    body: { name, spend_policy: spendPolicy },
  });
  const row = await accountRow(world, agent.account_id);
  if (row === undefined) throw new Error(`agent ${agent.account_id} has no row`);
  const key = await issueApiKey(world.service.context, {
    accountId: agent.account_id,
    name: "agent key",
    environment: "test",
  });
  return { agent, row, key };
}

/**
 * The two agents of `owner` the approval suites hold transfers for: `public-bot` with 300 public
 * USDG and `secret-bot` with 300 confidential USDG, both under `spendPolicy`.
 */
export async function createHoldingBots(
  world: ApiWorld,
  owner: WorldAccount,
  spendPolicy: TCreateAgentRequest["spend_policy"] = TEST_POLICY,
): Promise<{ readonly publicBot: WorldAgent; readonly confidentialBot: WorldAgent }> {
  const publicBot = await createTestAgent(world, owner, "public-bot", spendPolicy);
  const confidentialBot = await createTestAgent(world, owner, "secret-bot", spendPolicy);
  await world.fund(publicBot.row, { public: usdg(300) });
  await world.fund(confidentialBot.row, { confidential: usdg(300) });
  return { publicBot, confidentialBot };
}

/** The `accounts` row of `id`, if any. */
export async function accountRow(world: ApiWorld, id: string): Promise<AccountRow | undefined> {
  const { db } = world.service.context;
  const [row] = await db.read((q) =>
    q.select().from(db.tables.accounts).where(eq(db.tables.accounts.id, id)),
  );
  return row;
}

/** Every row of the `accounts` and `vault_secrets` tables, counted (to prove nothing was written). */
export async function rowCounts(world: ApiWorld): Promise<{ accounts: number; secrets: number }> {
  const { db } = world.service.context;
  const accounts = await db.read((q) => q.select().from(db.tables.accounts));
  const secrets = await db.read((q) => q.select().from(db.tables.vaultSecrets));
  return { accounts: accounts.length, secrets: secrets.length };
}

/** The events of `type` about `resourceId`, with their payloads parsed. */
export async function eventsOf(
  world: ApiWorld,
  type: string,
  resourceId: string,
): Promise<{ accountId: string; payload: Record<string, unknown> }[]> {
  const { db } = world.service.context;
  const { events } = db.tables;
  const rows = await db.read((q) => q.select().from(events).where(eq(events.resourceId, resourceId)));
  return rows
    .filter((row) => row.type === type)
    .map((row) => ({
      accountId: row.accountId,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
    }));
}
