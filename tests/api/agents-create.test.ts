/**
 * Creating and listing agents through /v1 (spec 4.4, 4.11) on the real program: the agent is a PDA
 * derived from its handle, its policy is on-chain exactly as requested, bad policies are
 * `400 invalid_policy` naming the field with nothing written, names are unique per owner, only
 * owner keys may manage agents, and an interrupted creation is cleaned up or finished.
 */

import {
  decodeSpendPolicy,
  findAgentPda,
  findPolicyPda,
  getPolicyDecoder,
  policyParamsFromAccount,
} from "@cpay/sdk";
import { SubmissionRejected } from "@cpay/sdk/chain";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { type ApiWorld, refusalOf } from "../support/api-world";
import { confidentialStateOn } from "../support/confidential-state";
import { accountRow, createTestAgent, rowCounts, TEST_POLICY } from "./support/agents";

describe("agent accounts", () => {
  const given = apiSuite({ accounts: ["alice", "carol"] });

  it("Given an owner, When it creates an agent, Then the agent is its handle's PDA with the requested policy on-chain and a confidential USDG account", async () => {
    const created = await given.alice.client.call("createAgent", {
      body: {
        name: "Payroll-Bot",
        spend_policy: {
          ...TEST_POLICY,
          daily_limit_usdg: "250.5",
          allowed_recipients: ["bob", "*.acme"],
          active_hours: "08:00-18:00",
        },
      },
    });
    const [pda] = await findAgentPda({ agentHandle: "alice/payroll-bot" });
    expect(created).toMatchObject({ handle: "@alice/payroll-bot", public_key: pda, status: "active" });
    expect(created.spend_policy_id).toMatch(/^policy_/);

    const [policyAddress] = await findPolicyPda({ agent: address(created.public_key) });
    const record = await given.world.chain.getAccount(policyAddress);
    expect(record).not.toBeNull();
    const onChain = decodeSpendPolicy(
      policyParamsFromAccount(getPolicyDecoder().decode(record?.data ?? new Uint8Array())),
      {
        assets: given.world.service.context.assets,
      },
    );
    expect(onChain).toEqual({
      daily_limit_usdg: "250.5",
      per_transaction_limit_usdg: "100",
      hitl_threshold_usdg: "50",
      assets: ["USDG"],
      allowed_recipients: ["bob", "*.acme"],
      active_hours: "08:00-18:00",
      approval_window_seconds: 86_400,
    });

    const tokenAccount = await findTokenAccount(created.public_key, given.world.chain.usdgMint);
    expect(await confidentialStateOn(given.world.chain, tokenAccount)).not.toBeNull();
    const row = await accountRow(given.world, created.account_id);
    expect(row).toMatchObject({
      type: "agent",
      ownerAccountId: given.alice.account.id,
      kycStatus: "verified",
    });
  });

  it("Given an agent name, When it is created twice (in any letter case), Then the second is 409 agent_exists", async () => {
    await createTestAgent(given.world, given.alice, "twice");
    const before = await rowCounts(given.world);
    const again = await refusalOf(
      given.alice.client.call("createAgent", { body: { name: "TWICE", spend_policy: TEST_POLICY } }),
    );
    expect([again.status, again.code, again.param]).toEqual([409, "agent_exists", "name"]);
    expect(await rowCounts(given.world)).toEqual(before);
  });

  it("Given the same name under two owners, When both create it, Then each gets its own agent", async () => {
    const mine = await createTestAgent(given.world, given.alice, "shared-name");
    const theirs = await createTestAgent(given.world, given.carol, "shared-name");
    expect(mine.agent.handle).toBe("@alice/shared-name");
    expect(theirs.agent.handle).toBe("@carol/shared-name");
    expect(mine.agent.public_key).not.toBe(theirs.agent.public_key);
  });

  const badPolicies: [string, Record<string, unknown>, string][] = [
    ["a negative limit", { per_transaction_limit_usdg: -1 }, "spend_policy.per_transaction_limit_usdg"],
    ["a negative limit as a string", { daily_limit_usdg: "-5" }, "spend_policy.daily_limit_usdg"],
    ["too many decimals", { hitl_threshold_usdg: "1.0000001" }, "spend_policy.hitl_threshold_usdg"],
    ["a limit above u64", { daily_limit_usdg: "18446744073709.551616" }, "spend_policy.daily_limit_usdg"],
    ["a non-numeric limit", { daily_limit_usdg: "ten" }, "spend_policy.daily_limit_usdg"],
    ["an unknown asset", { assets: ["DOGE"] }, "spend_policy.assets[0]"],
    ["a duplicated asset", { assets: ["USDG", "usdg"] }, "spend_policy.assets[1]"],
    ["malformed active hours", { active_hours: "8-18" }, "spend_policy.active_hours"],
    ["active hours past midnight", { active_hours: "08:00-24:30" }, "spend_policy.active_hours"],
    ["a bad recipient pattern", { allowed_recipients: ["*.*"] }, "spend_policy.allowed_recipients[0]"],
    ["a pattern with a space", { allowed_recipients: ["bob smith"] }, "spend_policy.allowed_recipients[0]"],
    [
      "too many patterns",
      { allowed_recipients: Array.from({ length: 17 }, (_, i) => `r${i}`) },
      "spend_policy.allowed_recipients",
    ],
    ["a zero approval window", { approval_window_seconds: 0 }, "spend_policy.approval_window_seconds"],
    [
      "an approval window over 7 days",
      { approval_window_seconds: 604_801 },
      "spend_policy.approval_window_seconds",
    ],
    ["a limit of the wrong type", { daily_limit_usdg: true }, "spend_policy.daily_limit_usdg"],
    ["assets that are not a list", { assets: "USDG" }, "spend_policy.assets"],
    [
      "a missing required limit",
      { per_transaction_limit_usdg: undefined },
      "spend_policy.per_transaction_limit_usdg",
    ],
  ];

  it.each(badPolicies)(
    "Given %s, When an agent is created, Then 400 invalid_policy names the field and nothing is written",
    async (_, change, param) => {
      const before = await rowCounts(given.world);
      const response = await given.world.fetch("/v1/accounts/me/agents", {
        key: given.alice.key.value,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "bad-policy", spend_policy: { ...TEST_POLICY, ...change } }),
      });
      const body = (await response.json()) as { error: { code: string; param: string; message: string } };
      expect(response.status).toBe(400);
      expect(body.error.code).toBe("invalid_policy");
      expect(body.error.param).toBe(param);
      expect(body.error.message).toContain(param.replace(/^spend_policy\./, "").split(/[[.]/)[0]);
      expect(await rowCounts(given.world)).toEqual(before);
    },
  );

  it("Given an unknown policy field, When an agent is created, Then 400 invalid_policy names it", async () => {
    const failure = await refusalOf(
      given.alice.client.call("createAgent", {
        body: { name: "extra", spend_policy: { ...TEST_POLICY, max_per_hour: 5 } as typeof TEST_POLICY },
      }),
    );
    expect([failure.status, failure.code]).toEqual([400, "invalid_policy"]);
    expect(failure.param).toContain("max_per_hour");
  });

  it.each([
    ["an empty name", ""],
    ["a name with a slash", "a/b"],
    ["a name with a space", "my bot"],
    ["a name over 32 bytes", "x".repeat(33)],
  ])(
    "Given %s, When an agent is created, Then 400 invalid_request names `name` and nothing is written",
    async (_, name) => {
      const before = await rowCounts(given.world);
      const failure = await refusalOf(
        given.alice.client.call("createAgent", { body: { name, spend_policy: TEST_POLICY } }),
      );
      expect([failure.status, failure.code, failure.param]).toEqual([400, "invalid_request", "name"]);
      expect(await rowCounts(given.world)).toEqual(before);
    },
  );

  it("Given an owner with agents, When it lists them, Then it sees its own in creation order and nobody else's", async () => {
    const dave = await given.world.account("dave");
    const first = await createTestAgent(given.world, dave, "first");
    const second = await createTestAgent(given.world, dave, "second");
    const listed = await dave.client.call("listAgents");
    expect(listed.agents).toEqual([first.agent, second.agent]);
    const erin = await given.world.account("erin");
    expect((await erin.client.call("listAgents")).agents).toEqual([]);
  });

  it("Given an agent's own key, When it calls the agent endpoints, Then each is 403 agent_key_not_allowed", async () => {
    const { agent, key } = await createTestAgent(given.world, given.alice, "keyed");
    const agentClient = given.world.clientFor(key.value);
    const calls = [
      () => agentClient.call("createAgent", { body: { name: "child", spend_policy: TEST_POLICY } }),
      () => agentClient.call("listAgents"),
      () => agentClient.call("getSpendPolicy", { params: { account_id: agent.account_id } }),
      () =>
        agentClient.call("updateSpendPolicy", {
          params: { account_id: agent.account_id },
          body: { hitl_threshold_usdg: 1 },
        }),
    ];
    for (const call of calls) {
      const failure = await refusalOf(call());
      expect([failure.status, failure.code]).toEqual([403, "agent_key_not_allowed"]);
    }
  });

  it("Given an Idempotency-Key, When the same creation is sent twice, Then one agent exists and the answer is replayed", async () => {
    const request = {
      key: given.alice.key.value,
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "agent-once" },
      body: JSON.stringify({ name: "once", spend_policy: TEST_POLICY }),
    };
    const first = await given.world.fetch("/v1/accounts/me/agents", request);
    const second = await given.world.fetch("/v1/accounts/me/agents", request);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.json()).toEqual(await first.json());
    const handles = (await given.alice.client.call("listAgents")).agents.map((agent) => agent.handle);
    expect(handles.filter((handle) => handle === "@alice/once")).toHaveLength(1);
  });

  it("Given the cluster refuses agent_create, When an agent is created, Then 503 chain_unavailable and no row is left", async () => {
    const before = await rowCounts(given.world);
    const restore = failSubmissions(given.world, [1]);
    const failure = await refusalOf(
      given.alice.client.call("createAgent", { body: { name: "unlucky", spend_policy: TEST_POLICY } }),
    ).finally(restore);
    expect([failure.status, failure.code]).toEqual([503, "chain_unavailable"]);
    expect(await rowCounts(given.world)).toEqual(before);
    // Nothing is burnt: the name can be created once the cluster answers again.
    expect((await createTestAgent(given.world, given.alice, "unlucky")).agent.handle).toBe("@alice/unlucky");
  });

  it("Given the confidential setup fails after agent_create landed, When the same request is retried, Then the agent is finished", async () => {
    const body = { name: "half-made", spend_policy: TEST_POLICY };
    const restore = failSubmissions(given.world, [2]);
    const failure = await refusalOf(given.alice.client.call("createAgent", { body })).finally(restore);
    expect([failure.status, failure.code]).toEqual([503, "chain_unavailable"]);
    // A different policy does not finish someone's half-made agent.
    const other = await refusalOf(
      given.alice.client.call("createAgent", {
        body: { ...body, spend_policy: { ...TEST_POLICY, hitl_threshold_usdg: 1 } },
      }),
    );
    expect(other.code).toBe("agent_exists");
    const finished = await given.alice.client.call("createAgent", { body });
    expect(finished.handle).toBe("@alice/half-made");
    const tokenAccount = await findTokenAccount(finished.public_key, given.world.chain.usdgMint);
    expect(await confidentialStateOn(given.world.chain, tokenAccount)).not.toBeNull();
    const again = await refusalOf(given.alice.client.call("createAgent", { body }));
    expect(again.code).toBe("agent_exists");
  });

  it("Given the confidential setup fails under an Idempotency-Key, When retried with the same key, Then the agent is finished, not the 503 replayed", async () => {
    const body = { name: "half-keyed", spend_policy: TEST_POLICY, custody: "self" as const };
    const call = () => given.alice.client.call("createAgent", { body, idempotencyKey: "agent-half-keyed" });
    const restore = failSubmissions(given.world, [2]);
    const failure = await refusalOf(call()).finally(restore);
    expect([failure.status, failure.code]).toEqual([503, "chain_unavailable"]);
    const finished = await call();
    expect(finished.handle).toBe("@alice/half-keyed");
    expect(finished.signer_secret).toEqual(expect.any(String));
    const tokenAccount = await findTokenAccount(finished.public_key, given.world.chain.usdgMint);
    expect(await confidentialStateOn(given.world.chain, tokenAccount)).not.toBeNull();
    // From now on the key replays the finished agent, without its secret.
    const replay = await call();
    expect(replay).toMatchObject({ account_id: finished.account_id, signer_secret: null });
  });
});

/**
 * Makes the service's chain port refuse the `which`-th (1-based) transaction submissions from now
 * on, as a cluster refusing them would (in process and over RPC alike); returns the function that
 * puts the port back.
 */
function failSubmissions(world: ApiWorld, which: readonly number[]): () => void {
  const port = world.chain as { sendTransaction: ApiWorld["chain"]["sendTransaction"] };
  const original = port.sendTransaction;
  let count = 0;
  port.sendTransaction = async (wire, options) => {
    count += 1;
    if (which.includes(count)) throw new SubmissionRejected("preflight_failed", "refused by the test");
    return original(wire, options);
  };
  return () => {
    port.sendTransaction = original;
  };
}
