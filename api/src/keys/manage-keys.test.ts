/**
 * Discarding a key whose creating request died before answering (idempotency recovery), on a real
 * (SQLite) database: the claim is the caller's, and the key is the caller's own or one it issued to
 * one of its agents (`POST /v1/keys` with `account_id`). Another owner's agent's key is left alone.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../core/service-context";
import { useThrowawayDatabase } from "../core/throwaway-database.test-support";
import { issueApiKey } from "./issue-key";
import { discardUndeliveredKey } from "./manage-keys";

const world = useThrowawayDatabase("manage-keys");

async function account(service: ServiceContext, id: string, ownerAccountId: string | null = null) {
  await service.db.transaction((tx) =>
    tx.insert(service.db.tables.accounts).values({
      id,
      handle: ownerAccountId === null ? `@${id}` : `@${ownerAccountId}/${id}`,
      type: ownerAccountId === null ? "business" : "agent",
      kycStatus: "verified",
      publicKey: `pk-${id}`,
      ownerAccountId,
      createdAt: new Date().toISOString(),
    }),
  );
}

async function keyRow(service: ServiceContext, keyId: string) {
  const { apiKeys } = service.db.tables;
  const [row] = await service.db.read((db) => db.select().from(apiKeys).where(eq(apiKeys.id, keyId)));
  return row;
}

describe("discarding an undelivered key", () => {
  it("Given unseen keys of the owner, of its agent and of another owner's agent, When the owner's claim is recovered, Then its own and its agent's go and the other one stays", async () => {
    const service = world.serviceWith({});
    await account(service, "owner");
    await account(service, "bot", "owner");
    await account(service, "other");
    await account(service, "otherbot", "other");
    const issue = (accountId: string) =>
      issueApiKey(service, { accountId, name: "mcp", environment: "test" });
    const own = await issue("owner");
    const agents = await issue("bot");
    const foreign = await issue("otherbot");

    for (const key of [own, agents, foreign]) await discardUndeliveredKey(service, "owner", key.id);

    expect(await keyRow(service, own.id)).toBeUndefined();
    expect(await keyRow(service, agents.id)).toBeUndefined();
    expect(await keyRow(service, foreign.id)).toMatchObject({ accountId: "otherbot", revokedAt: null });
  });

  it("Given the agent's key was used, When the owner's claim is recovered, Then it is revoked, keeping its usage", async () => {
    const service = world.serviceWith({});
    await account(service, "owner");
    await account(service, "bot", "owner");
    const key = await issueApiKey(service, { accountId: "bot", name: "mcp", environment: "test" });
    const { apiKeys } = service.db.tables;
    await service.db.transaction((tx) =>
      tx
        .update(apiKeys)
        .set({ lastUsedAt: new Date().toISOString(), requestCount: 3 })
        .where(eq(apiKeys.id, key.id)),
    );

    await discardUndeliveredKey(service, "owner", key.id);

    expect(await keyRow(service, key.id)).toMatchObject({ requestCount: 3, revokedAt: expect.any(String) });
  });
});
