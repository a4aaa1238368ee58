/**
 * An agent key learns nothing about its balance from `POST /v1/transfers` refusals: every rule of
 * its spend policy that can refuse a transfer (recipient, asset, active hours, an open hold, the
 * per-transaction and daily limits) is checked before the balance, so a transfer the policy
 * refuses gets the policy's answer whatever the balance — small amount or huge, confidential or
 * public.
 */
import { clusterUnixTime } from "@cpay/sdk/agent-confidential";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";
import { createTestAgent, TEST_POLICY, type WorldAgent } from "./support/agents";

/** HH:MM of `minute` of the day. */
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

const given = apiSuite({
  accounts: { owner: "olga", alice: "alice", bob: "bob" },
  setUp: async ({ world, owner }) => {
    const onlyAlice = await createTestAgent(world, owner, "only-alice", {
      ...TEST_POLICY,
      allowed_recipients: ["alice"],
    });
    // Active two hours from now, for one hour: asleep whenever the suite runs.
    const minute = Number(((await clusterUnixTime(world.chain)) / 60n) % 1440n);
    const asleep = await createTestAgent(world, owner, "asleep", {
      ...TEST_POLICY,
      active_hours: `${hhmm((minute + 120) % 1440)}-${hhmm((minute + 180) % 1440)}`,
    });
    const capped = await createTestAgent(world, owner, "capped");
    for (const agent of [onlyAlice, asleep, capped]) {
      await world.fund(agent.row, { confidential: usdg(20), public: usdg(20) });
    }
    return { onlyAlice, asleep, capped };
  },
});

async function answerTo(agent: WorldAgent, body: { to: string; amount: string; confidential: boolean }) {
  const refused = await refusalOf(given.world.clientFor(agent.key.value).call("createTransfer", { body }));
  return { status: refused.status, code: refused.code, param: refused.param, message: refused.message };
}

describe("no balance oracle for agent keys", () => {
  it.each([true, false])(
    "Given an agent allowed to pay only @alice (confidential: %s), When it sends to @bob an amount it holds and one it does not, Then both answers are the allowlist refusal",
    async (confidential) => {
      const small = await answerTo(given.onlyAlice, { to: "@bob", amount: "1", confidential });
      const huge = await answerTo(given.onlyAlice, { to: "@bob", amount: "90", confidential });
      expect(small).toMatchObject({ status: 422, code: "policy_violation", param: "allowed_recipients" });
      expect(huge).toEqual(small);
    },
  );

  it("Given an agent outside its active hours, When it sends an amount it holds and one it does not, Then both answers are the active-hours refusal", async () => {
    const small = await answerTo(given.asleep, { to: "@bob", amount: "1", confidential: true });
    const huge = await answerTo(given.asleep, { to: "@bob", amount: "90", confidential: true });
    expect(small).toMatchObject({ status: 422, code: "policy_violation", param: "active_hours" });
    expect(huge).toEqual(small);
  });

  it("Given an agent with a per-transaction limit of 100 and 20 USDG, When it sends 150, Then the per-transaction refusal, not 402", async () => {
    const above = await answerTo(given.capped, { to: "@bob", amount: "150", confidential: true });
    expect(above).toMatchObject({
      status: 422,
      code: "policy_violation",
      param: "per_transaction_limit_usdg",
    });
    const publicAbove = await answerTo(given.capped, { to: "@bob", amount: "150", confidential: false });
    expect(publicAbove).toEqual(above);
  });

  it("Given the same agent, When it sends within its policy more than it holds, Then 402 insufficient_balance (the policy allows it; only the balance refuses)", async () => {
    const within = await answerTo(given.capped, { to: "@bob", amount: "40", confidential: true });
    expect(within).toMatchObject({ status: 402, code: "insufficient_balance" });
  });
});
