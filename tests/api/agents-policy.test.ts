/**
 * Reading and changing an agent's spend policy through /v1 (spec 4.5, 4.6): the policy is read
 * from the agent's on-chain Policy account, a PATCH changes only the fields it names (on-chain),
 * fires `agent.policy.updated` once per change, and only the agent's owner may do either.
 */

import { walletSignerOf } from "@cpay/api/vault";
import { signTransactionToWire } from "@cpay/localnet/cluster";
import { buildPolicyUpdateInstruction } from "@cpay/sdk";
import type { TSpendPolicyUpdate } from "@cpay/sdk/api";
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, type WorldAccount } from "../support/api-world";
import { createTestAgent, eventsOf, TEST_POLICY } from "./support/agents";

describe("spend policies", () => {
  const given = apiSuite({
    accounts: ["alice", "mallory"],
    setUp: async ({ world, alice }) => ({ bot: await createTestAgent(world, alice, "bot") }),
  });

  const getPolicy = (who: WorldAccount, accountId = given.bot.agent.account_id) =>
    who.client.call("getSpendPolicy", { params: { account_id: accountId } });
  const patchPolicy = (who: WorldAccount, body: TSpendPolicyUpdate, accountId = given.bot.agent.account_id) =>
    who.client.call("updateSpendPolicy", { params: { account_id: accountId }, body });

  it("Given a new agent, When its owner reads the policy, Then it is the requested one with limits as numbers", async () => {
    const policy = await getPolicy(given.alice);
    expect(policy).toEqual({
      policy_id: given.bot.agent.spend_policy_id,
      daily_limit_usdg: 250,
      per_transaction_limit_usdg: 100,
      allowed_recipients: [],
      assets: ["USDG"],
      active_hours: "00:00-00:00",
      hitl_threshold_usdg: 50,
      approval_window_seconds: 86_400,
      updated_at: expect.any(String),
    });
    // The program stamps the change with the cluster's clock.
    const clusterSeconds = Number((await given.world.testClock.clock()).unixTimestamp);
    expect(Math.abs(Date.parse(policy.updated_at) / 1000 - clusterSeconds)).toBeLessThan(60);
  });

  it("Given a partial update, When the owner PATCHes it, Then only those fields change on-chain and the answer is the new policy", async () => {
    const before = await getPolicy(given.alice);
    await given.world.testClock.warpTime(120);
    const updated = await patchPolicy(given.alice, {
      per_transaction_limit_usdg: 75.5,
      hitl_threshold_usdg: "20",
      allowed_recipients: ["*.acme"],
    });
    expect(updated).toEqual({
      ...before,
      per_transaction_limit_usdg: 75.5,
      hitl_threshold_usdg: 20,
      allowed_recipients: ["*.acme"],
      updated_at: updated.updated_at,
    });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(await getPolicy(given.alice)).toEqual(updated);
  });

  it("Given a policy update, When it lands, Then exactly one agent.policy.updated event names the agent, without limits", async () => {
    const before = await eventsOf(given.world, "agent.policy.updated", given.bot.agent.spend_policy_id);
    await patchPolicy(given.alice, { active_hours: "22:00-06:00" });
    const after = await eventsOf(given.world, "agent.policy.updated", given.bot.agent.spend_policy_id);
    expect(after).toHaveLength(before.length + 1);
    const event = after.find(
      (candidate) => !before.some((old) => old.payload.event_id === candidate.payload.event_id),
    );
    expect(event?.accountId).toBe(given.alice.account.id);
    expect(event?.payload).toMatchObject({
      event: "agent.policy.updated",
      account: "@alice/bot",
      policy_id: given.bot.agent.spend_policy_id,
      agent_account_id: given.bot.agent.account_id,
      tx_signature: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/),
    });
    const text = JSON.stringify(event?.payload);
    for (const limit of ["daily_limit", "per_transaction", "hitl", "allowed", "active_hours"])
      expect(text).not.toContain(limit);
  });

  it("Given the policy was changed on-chain without the API, When the owner reads it, Then the chain's value is shown", async () => {
    const owner = await walletSignerOf(given.world.service.context, given.alice.account.id);
    const instruction = await buildPolicyUpdateInstruction({
      owner,
      agent: address(given.bot.agent.public_key),
      update: { daily_limit_usdg: "400" },
      assets: given.world.service.context.assets,
    });
    const { wire, signature } = await signTransactionToWire({
      feePayer: given.world.service.context.feePayer,
      instructions: [instruction],
      ...(await given.world.chain.getLatestBlockhash()),
    });
    await given.world.chain.sendTransaction(wire, { preflight: true });
    expect((await given.world.chain.getSignatureStatus(signature))?.err).toBeNull();
    expect((await getPolicy(given.alice)).daily_limit_usdg).toBe(400);
  });

  it.each([
    ["an empty body", {}, "body"],
    ["a negative limit", { daily_limit_usdg: -1 }, "daily_limit_usdg"],
    ["too many decimals", { per_transaction_limit_usdg: "0.0000001" }, "per_transaction_limit_usdg"],
    ["an unknown asset", { assets: ["BTC"] }, "assets[0]"],
    ["malformed active hours", { active_hours: "25:00-01:00" }, "active_hours"],
    ["a bad pattern", { allowed_recipients: ["@@"] }, "allowed_recipients[0]"],
    ["a wrong type", { hitl_threshold_usdg: [1] }, "hitl_threshold_usdg"],
  ])(
    "Given %s, When the owner PATCHes, Then 400 invalid_policy names it and nothing changes",
    async (_, body, param) => {
      const before = await getPolicy(given.alice);
      const response = await given.world.fetch(`/v1/agents/${given.bot.agent.account_id}/spend-policy`, {
        key: given.alice.key.value,
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { error: { code: string; param: string } };
      expect([response.status, answer.error.code, answer.error.param]).toEqual([
        400,
        "invalid_policy",
        param,
      ]);
      expect(await getPolicy(given.alice)).toEqual(before);
    },
  );

  it("Given an unknown field, When the owner PATCHes, Then 400 invalid_policy names it", async () => {
    const failure = await refusalOf(patchPolicy(given.alice, { monthly_limit_usdg: 5 } as never));
    expect([failure.status, failure.code, failure.param]).toEqual([
      400,
      "invalid_policy",
      "monthly_limit_usdg",
    ]);
  });

  it("Given another owner's key, When it reads or changes the policy, Then 403 not_agent_owner and nothing changes", async () => {
    const before = await getPolicy(given.alice);
    const read = await refusalOf(getPolicy(given.mallory));
    expect([read.status, read.code]).toEqual([403, "not_agent_owner"]);
    const write = await refusalOf(patchPolicy(given.mallory, { daily_limit_usdg: 1_000_000 }));
    expect([write.status, write.code]).toEqual([403, "not_agent_owner"]);
    expect(await getPolicy(given.alice)).toEqual(before);
  });

  it("Given an id that is no agent, When the policy is read, Then 404 agent_not_found", async () => {
    const unknown = await refusalOf(getPolicy(given.alice, `acct_${"a".repeat(26)}`));
    expect([unknown.status, unknown.code]).toEqual([404, "agent_not_found"]);
    const personal = await refusalOf(getPolicy(given.alice, given.alice.account.id));
    expect([personal.status, personal.code]).toEqual([404, "agent_not_found"]);
    const patch = await refusalOf(
      patchPolicy(given.alice, { daily_limit_usdg: 1 }, given.mallory.account.id),
    );
    expect([patch.status, patch.code]).toEqual([404, "agent_not_found"]);
  });

  it("Given a malformed agent id, When the policy is read, Then 404 agent_not_found names the path parameter, like any unknown id", async () => {
    const response = await given.world.fetch("/v1/agents/not-an-id/spend-policy", {
      key: given.alice.key.value,
    });
    const answer = (await response.json()) as { error: { code: string; param: string } };
    expect([response.status, answer.error.code, answer.error.param]).toEqual([
      404,
      "agent_not_found",
      "account_id",
    ]);
  });

  it("Given a new policy from creation, When it is a valid edge (zero limits, every asset slot), Then it is accepted as given", async () => {
    const strict = await createTestAgent(given.world, given.alice, "strict", {
      ...TEST_POLICY,
      per_transaction_limit_usdg: 0,
      daily_limit_usdg: 0,
      hitl_threshold_usdg: 0,
      active_hours: "09:30-17:45",
      approval_window_seconds: 1,
    });
    expect(await getPolicy(given.alice, strict.agent.account_id)).toMatchObject({
      per_transaction_limit_usdg: 0,
      daily_limit_usdg: 0,
      hitl_threshold_usdg: 0,
      active_hours: "09:30-17:45",
      approval_window_seconds: 1,
    });
  });
});
