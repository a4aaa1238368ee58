/**
 * KYC wherever money moves, and the per-owner agent cap: an owner whose identity verification is
 * not complete (never was, or was downgraded) cannot move funds through the relay, approve a held
 * transfer (rejecting stays allowed: nothing moves), or create agents (the reserve pays their
 * rent); and no owner creates more than `AGENTS_PER_OWNER_MAX` agents. Every refusal signs
 * nothing and leaves the reserve and the database as they were.
 */
import { type KycStatus, setKycStatus } from "@cpay/api";
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg, type WorldAccount } from "../support/api-world";
import { signerState } from "../support/chain-reads";
import { createTestAgent, rowCounts, TEST_POLICY } from "./support/agents";
import { holdAgentTransfer, publicUsdg } from "./support/held-transfer";
import { createSelfCustodyAgent, signedPublicTransfer } from "./support/self-custody";

const given = apiSuite({ accounts: ["bob"] });

/** What the admin surface does when an owner's verification changes (effective next request). */
async function setKyc(account: WorldAccount, status: KycStatus): Promise<void> {
  await setKycStatus(given.world.service.context, account.account, status);
}

/** What the fee payer has signed so far, and its lamports: a refused request changes neither. */
const reserveState = () => signerState(given.world.chain, given.world.service.context.feePayer.address);

describe("KYC on every path that moves money", () => {
  it("Given a self-custody agent whose owner was downgraded to unverified, When it relays a transfer, Then 403 kyc_required and nothing is signed or moved", async () => {
    const owner = await given.world.account("relay-owner");
    const agent = await createSelfCustodyAgent(given.world, owner, "solo");
    await given.world.fund(await given.world.accountRow(agent.created.account_id), { public: usdg(50) });
    await setKyc(owner, "unverified");
    const transaction = await signedPublicTransfer(
      given.world,
      agent,
      address(given.bob.account.publicKey),
      usdg(5),
    );
    const bobBefore = await publicUsdg(given.world, given.bob.account.publicKey);
    const reserve = await reserveState();

    const refused = await refusalOf(
      given.world
        .clientFor(agent.key.value)
        .call("relayTransactions", { body: { transactions: [transaction] } }),
    );

    expect([refused.status, refused.code]).toEqual([403, "kyc_required"]);
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore);
    expect(await reserveState()).toEqual(reserve);
  });

  it("Given a held transfer whose owner is pending verification, When the owner approves it, Then 403 kyc_required and nothing moves; rejecting it still works", async () => {
    const owner = await given.world.account("hold-owner");
    const agent = await createTestAgent(given.world, owner, "holder");
    await given.world.fund(agent.row, { public: usdg(100) });
    const held = await holdAgentTransfer(given.world, agent, {
      to: "@bob",
      amount: "60",
      confidential: false,
    });
    await setKyc(owner, "pending");
    const bobBefore = await publicUsdg(given.world, given.bob.account.publicKey);
    const reserve = await reserveState();

    const refused = await refusalOf(
      owner.client.call("approveTransaction", { params: { transaction_id: held.transactionId } }),
    );

    expect([refused.status, refused.code]).toEqual([403, "kyc_required"]);
    expect(await publicUsdg(given.world, given.bob.account.publicKey)).toBe(bobBefore);
    expect(await reserveState()).toEqual(reserve);
    expect((await given.world.holdRow(held.transactionId)).status).toBe("pending_approval");
    const rejected = await owner.client.call("rejectTransaction", {
      params: { transaction_id: held.transactionId },
    });
    expect(rejected.status).toBe("rejected");
  });

  it("Given an unverified owner, When it creates an agent, Then 403 kyc_required with nothing written and nothing paid", async () => {
    const owner = await given.world.account("unverified-owner", { kyc: "unverified" });
    const rows = await rowCounts(given.world);
    const reserve = await reserveState();

    const refused = await refusalOf(
      owner.client.call("createAgent", { body: { name: "bot", spend_policy: TEST_POLICY } }),
    );

    expect([refused.status, refused.code]).toEqual([403, "kyc_required"]);
    expect(await rowCounts(given.world)).toEqual(rows);
    expect(await reserveState()).toEqual(reserve);
  });
});

describe("agents per owner", () => {
  it("Given an owner with 20 agents (the default cap), When it creates a 21st, Then 409 agent_limit_reached with nothing written and nothing paid", async () => {
    const owner = await given.world.account("busy-owner");
    for (let index = 0; index < 20; index++) {
      await owner.client.call("createAgent", { body: { name: `bot-${index}`, spend_policy: TEST_POLICY } });
    }
    const rows = await rowCounts(given.world);
    const reserve = await reserveState();

    const refused = await refusalOf(
      owner.client.call("createAgent", { body: { name: "bot-20", spend_policy: TEST_POLICY } }),
    );

    expect([refused.status, refused.code]).toEqual([409, "agent_limit_reached"]);
    expect(refused.message).toContain("20");
    expect(await rowCounts(given.world)).toEqual(rows);
    expect(await reserveState()).toEqual(reserve);
    // The cap is per owner: another owner still creates agents.
    const other = await given.world.account("other-owner");
    await expect(
      other.client.call("createAgent", { body: { name: "bot-0", spend_policy: TEST_POLICY } }),
    ).resolves.toMatchObject({ handle: "@other-owner/bot-0" });
  });
});
