import { deriveViewingKeys, importAccountSecret } from "@cpay/sdk/sealed";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf } from "../support/api-world";
import { createTestAgent } from "./support/agents";

describe("GET /v1/accounts/me", () => {
  const given = apiSuite({ accounts: { owner: { handle: "owner", type: "business" } } });

  it("returns the key's own account with the spec's fields", async () => {
    // Given a verified business account and its key
    // When it asks who it is
    const me = await given.owner.client.call("getMe");
    // Then it gets exactly its account (2.2) and, from the chain, whether it can move USDG
    // confidentially (the default mint approves accounts as they are configured), and the ElGamal
    // key its holder's secret derives (so a browser can tell a foreign secret from its own)
    const own = deriveViewingKeys(importAccountSecret(given.owner.confidentialSecret)).elgamalPubkey;
    expect(me).toEqual({
      account_id: given.owner.account.id,
      handle: "@owner",
      type: "business",
      public_key: given.owner.account.publicKey,
      kyc_status: "verified",
      created_at: given.owner.account.createdAt,
      confidential_status: "ready",
      elgamal_pubkey: Buffer.from(own).toString("base64"),
    });
  });

  it.each(["unverified", "pending"] as const)("refuses a %s account with 403 kyc_required", async (kyc) => {
    // Given an account whose identity verification is not complete
    const someone = await given.world.account(`kyc-${kyc}`, { kyc });
    // When it reads its account and its balances
    const me = await refusalOf(someone.client.call("getMe"));
    const balances = await refusalOf(someone.client.call("getBalances"));
    // Then both are refused, naming the status
    for (const error of [me, balances]) {
      expect(error.status).toBe(403);
      expect(error.code).toBe("kyc_required");
      expect(error.message).toContain(kyc);
    }
  });

  it("accepts an enhanced verification", async () => {
    const enhanced = await given.world.account("enhanced", { kyc: "enhanced" });
    expect((await enhanced.client.call("getMe")).kyc_status).toBe("enhanced");
  });

  it("answers an agent's key with the agent's account, gated by its owner's verification", async () => {
    // Given an agent of a verified owner, with its own key
    const { agent, key } = await createTestAgent(given.world, given.owner, "me-bot");
    const agentClient = given.world.clientFor(key.value);
    // When the agent asks who it is
    const me = await agentClient.call("getMe");
    // Then it is the agent (its PDA as public key), not its owner
    expect(me).toMatchObject({ account_id: agent.account_id, handle: "@owner/me-bot", type: "agent" });
    expect(me.public_key).toBe(agent.public_key);

    // And when the owner's verification is withdrawn, the agent is refused too
    const { db } = given.world.service.context;
    await db.transaction((tx) =>
      tx
        .update(db.tables.accounts)
        .set({ kycStatus: "pending" })
        .where(eq(db.tables.accounts.id, given.owner.account.id))
        .then(() => undefined),
    );
    try {
      const error = await refusalOf(agentClient.call("getMe"));
      expect(error.status).toBe(403);
      expect(error.code).toBe("kyc_required");
    } finally {
      await db.transaction((tx) =>
        tx
          .update(db.tables.accounts)
          .set({ kycStatus: "verified" })
          .where(eq(db.tables.accounts.id, given.owner.account.id))
          .then(() => undefined),
      );
    }
  });

  it("is 401 unauthorized without a valid key", async () => {
    const missing = await given.world.fetch("/v1/accounts/me");
    expect(missing.status).toBe(401);
    const unknown = await refusalOf(given.world.clientFor(`svc_test_${"A".repeat(43)}`).call("getMe"));
    expect(unknown.code).toBe("unauthorized");
  });
});
