/**
 * The plaintext canary (DESIGN section 3): after confidential transfers through `/v1` — an owner's
 * with a memo and an agent's own — no amount and no memo appears in any response the service gave
 * (the sender's and the recipient's reads, with their sealed details), in any row of any table (a
 * full dump), or in any log line. The amounts are odd values that cannot occur by accident,
 * searched as API decimals, base units and their hex; positive controls show the search finds what
 * is there, and that the sealed details it searched do hold the amount and memo (the sender opens
 * them with its own secret), as the agent's budget answer holds its spend (the owner reads it).
 */
import type { TAgentBudget, TTransferDetail } from "@cpay/sdk/api";
import {
  deriveViewingKeys,
  importAccountSecret,
  openTransferDetails,
  remainingBudgetOf,
} from "@cpay/sdk/sealed";
import { beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { eventually } from "../support/eventually";
import { plaintextNeedles } from "../support/plaintext-needles";

const OWNER_AMOUNT = "7.654321";
const AGENT_AMOUNT = "3.141593";
const MEMO = "canary memo: invoice 90417 for the blue widgets";

describe("the plaintext canary over responses, database and logs", () => {
  const given = apiSuite({ accounts: ["alice", "bob"], funds: { alice: { confidential: usdg(50) } } });
  const responses: string[] = [];
  let dump = "";
  let ownerTransfer: TTransferDetail;
  let received: TTransferDetail;
  let budget: TAgentBudget;

  beforeAll(async () => {
    const { world, alice, bob } = given;
    const record = <T>(value: T): T => {
      responses.push(JSON.stringify(value));
      return value;
    };
    const sent = record(
      await alice.client.call("createTransfer", { body: { to: "@bob", amount: OWNER_AMOUNT, memo: MEMO } }),
    );
    const agent = record(
      await alice.client.call("createAgent", {
        body: {
          name: "spender",
          spend_policy: {
            daily_limit_usdg: 20,
            per_transaction_limit_usdg: 10,
            hitl_threshold_usdg: 10,
            assets: ["USDG"],
          },
        },
      }),
    );
    await world.fund(await world.accountRow(agent.account_id), { confidential: usdg(10) });
    const agentClient = world.clientFor(await world.keyFor(agent.account_id));
    const spent = record(
      await agentClient.call("createTransfer", { body: { to: "@bob", amount: AGENT_AMOUNT } }),
    );
    await world.slots(4);
    // The recipient sees it once confirmed (the indexer's fact)
    ownerTransfer = await eventually(
      () => alice.client.call("getTransfer", { params: { transfer_id: sent.transfer_id } }),
      (transfer) => transfer.status !== "pending",
    );
    record(ownerTransfer);
    received = record(await bob.client.call("getTransfer", { params: { transfer_id: sent.transfer_id } }));
    record(await bob.client.call("listTransfers", { query: { direction: "received" } }));
    record(await agentClient.call("getTransfer", { params: { transfer_id: spent.transfer_id } }));
    record(await alice.client.call("listTransfers"));
    record(await alice.client.call("getBalances"));
    record(await alice.client.call("listPendingApprovals"));
    record(await alice.client.call("getSpendPolicy", { params: { account_id: agent.account_id } }));
    budget = record(await alice.client.call("getAgentBudget", { params: { account_id: agent.account_id } }));
    const { db } = world.service.context;
    for (const [name, table] of Object.entries(db.tables)) {
      const rows = await db.read((q) => q.select().from(table));
      dump += `${name}\n${JSON.stringify(rows)}\n`;
    }
  });

  it("finds what is there (positive control: a public policy limit and a handle)", () => {
    expect(responses.join("\n")).toContain("@bob");
    expect(dump).toContain("@alice/spender");
  });

  it("searched sealed details that hold the amount and memo (positive control: the sender opens them)", () => {
    expect(received.direction).toBe("received");
    expect(received.sealed_details).toBe(ownerTransfer.sealed_details);
    const opened = openTransferDetails({
      sealed: ownerTransfer.sealed_details ?? "",
      viewer: deriveViewingKeys(importAccountSecret(given.alice.confidentialSecret)),
      boundTo: ownerTransfer.transfer_id,
    });
    expect(opened).toEqual({ amount: 7_654_321n, memo: MEMO, direction: "sent" });
    expect(responses.join("\n")).toContain(ownerTransfer.sealed_details);
  });

  it("searched a budget answer that holds the agent's spend (positive control: the owner reads it)", () => {
    expect(budget.confidential_spent).not.toBeNull();
    expect(
      remainingBudgetOf({ budget, ownerSecret: importAccountSecret(given.alice.confidentialSecret) }),
    ).toEqual({
      daily: usdg(20) - 3_141_593n,
      perTransaction: usdg(10),
    });
  });

  it.each([
    ["the owner's amount", plaintextNeedles(OWNER_AMOUNT)],
    ["the agent's amount", plaintextNeedles(AGENT_AMOUNT)],
    [
      "the memo",
      [MEMO, "invoice 90417", Buffer.from(MEMO).toString("hex"), Buffer.from(MEMO).toString("base64")],
    ],
  ])("never shows %s", (_what, forms) => {
    for (const form of forms) {
      expect(responses.join("\n"), `response contains ${form}`).not.toContain(form);
      expect(dump, `database contains ${form}`).not.toContain(form);
      expect(given.world.logs.join("\n"), `logs contain ${form}`).not.toContain(form);
    }
  });
});
