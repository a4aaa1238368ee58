/**
 * Two answers the interface fixes: an id of the wrong shape in a path is an unknown id (`404`
 * with the route's not-found code, exactly like a well-formed id nobody issued), never `400`;
 * and an amount the account cannot cover is `402 insufficient_balance`, also when it is above
 * what one confidential transfer can carry.
 */
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";

const given = apiSuite({
  accounts: ["alice", "bob"],
  funds: { alice: { confidential: usdg(10), public: usdg(10) } },
});

const WELL_FORMED_BODY = "a".repeat(26);
const WRONG_SHAPES = [
  `tr_${"A".repeat(26)}`,
  `tr_${"a".repeat(25)}`,
  `tr_${"a".repeat(27)}`,
  "tr_0000000000000000000000000!",
  `tx_${WELL_FORMED_BODY}`,
  `zz_${WELL_FORMED_BODY}`,
  "anything",
];

async function errorOf(response: Response): Promise<{ status: number; code: unknown }> {
  const body = (await response.json()) as { error?: { code?: unknown } };
  return { status: response.status, code: body.error?.code };
}

describe("ids of the wrong shape", () => {
  it.each(WRONG_SHAPES)(
    "Given the transfer id %s, When it is read, Then 404 transfer_not_found",
    async (id) => {
      const answer = await given.world.fetch(`/v1/transfers/${encodeURIComponent(id)}`, {
        key: given.alice.key.value,
      });
      expect(await errorOf(answer)).toEqual({ status: 404, code: "transfer_not_found" });
    },
  );

  it("Given a well-formed unknown transfer id, When it is read, Then the same 404 transfer_not_found", async () => {
    const answer = await given.world.fetch(`/v1/transfers/tr_${WELL_FORMED_BODY}`, {
      key: given.alice.key.value,
    });
    expect(await errorOf(answer)).toEqual({ status: 404, code: "transfer_not_found" });
  });

  it.each([
    ["POST", `/v1/agents/transactions/tr_${WELL_FORMED_BODY}/approve`, "transaction_not_found"],
    ["POST", "/v1/agents/transactions/tx_short/reject", "transaction_not_found"],
    ["GET", `/v1/agents/tx_${WELL_FORMED_BODY}/spend-policy`, "agent_not_found"],
    ["PATCH", "/v1/agents/acct_NOPE/spend-policy", "agent_not_found"],
    ["DELETE", `/v1/webhooks/evt_${WELL_FORMED_BODY}`, "webhook_not_found"],
    ["GET", "/v1/webhooks/wh_x/deliveries", "webhook_not_found"],
    ["POST", `/v1/webhooks/wh_${WELL_FORMED_BODY}/replay/evt_x`, "event_not_found"],
  ])("Given %s %s, When it is called, Then 404 %s", async (method, path, code) => {
    const answer = await given.world.fetch(path, {
      method,
      key: given.alice.key.value,
      ...(method === "PATCH" ? { headers: { "content-type": "application/json" }, body: "{}" } : {}),
    });
    expect(await errorOf(answer)).toEqual({ status: 404, code });
  });
});

describe("amounts the account cannot cover", () => {
  it("Given 10 USDG, When it sends confidentially more than one confidential transfer carries, Then 402 insufficient_balance", async () => {
    // 300,000,000 USDG = 3 * 10^14 base units, above 2^48 - 1.
    const refused = await refusalOf(
      given.alice.client.call("createTransfer", {
        body: { to: "@bob", amount: "300000000", confidential: true },
      }),
    );
    expect([refused.status, refused.code]).toEqual([402, "insufficient_balance"]);
  });

  it("Given 10 USDG, When it sends more than u64 holds, Then still 400 invalid_request (not an amount at all)", async () => {
    const refused = await refusalOf(
      given.alice.client.call("createTransfer", {
        body: { to: "@bob", amount: "99999999999999999999999", confidential: false },
      }),
    );
    expect([refused.status, refused.code, refused.param]).toEqual([400, "invalid_request", "amount"]);
  });
});
