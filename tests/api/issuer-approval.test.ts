/**
 * A USDG mint like Paxos' on mainnet: the issuer approves each confidential account
 * (`auto_approve_new_accounts: false`), and this one also has an auditor key. Until its approval an
 * account says so in `GET /v1/accounts/me`, cannot receive confidentially (`422
 * recipient_not_confidential_ready`) nor send confidentially (`409 confidential_account_not_approved`,
 * refused before any proof, row or fee), and moves public USDG both ways. Once the issuer approves
 * it (over RPC with the localnet's approve tool) it is ready by itself, and every confidential
 * transfer, an owner's, an agent's and a self-custody agent's through the relay, carries the amount encrypted to the auditor, who decrypts it.
 *
 * The steps share the world's state, so they run in order.
 */
import { type ApiClient, ApiRequestError, type TTransferDetail } from "@cpay/sdk/api";
import { zk } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg, type WorldAccount } from "../support/api-world";
import { auditorAmounts } from "../support/auditor-amount";
import { landedTransaction, signerState } from "../support/chain-reads";
import { eventually } from "../support/eventually";
import { agentKeysFromOwnerSecret } from "../support/holder-keys";
import { approveAsIssuer } from "../support/issuer-approval";
import { publicUsdgOn } from "../support/usdg-balances";
import { TEST_POLICY } from "./support/agents";
import { createSelfCustodyAgent, selfCustodyClient } from "./support/self-custody";

describe("a USDG mint whose issuer approves each confidential account, with an auditor", () => {
  const auditor = new zk.ElGamalKeypair();
  const given = apiSuite({
    world: {
      usdgMint: { autoApproveNewAccounts: false, auditorElgamalPubkey: auditor.pubkey().toBytes() },
    },
    accounts: ["alice", "bob"],
  });

  const statusOf = async (holder: WorldAccount) =>
    (await holder.client.call("getMe", {})).confidential_status;

  const publicBalance = (holder: WorldAccount) => publicUsdgOn(given.world.chain, holder.account.publicKey);

  function settled(client: ApiClient, transferId: string): Promise<TTransferDetail> {
    return eventually(
      () => client.call("getTransfer", { params: { transfer_id: transferId } }),
      (transfer) => transfer.status !== "pending",
    );
  }

  /** What the auditor decrypts from the transfer's final transaction. */
  async function audited(signature: string | null): Promise<bigint[]> {
    if (signature === null) throw new Error("the transfer has no signature");
    return auditorAmounts(await landedTransaction(given.world.chain, signature), auditor);
  }

  it("shows a configured account as awaiting the issuer's approval, and ready once approved", async () => {
    // Given two accounts just created on the mint (configured for confidential transfers)
    // Then both await approval
    expect(await statusOf(given.alice)).toBe("awaiting_approval");
    expect(await statusOf(given.bob)).toBe("awaiting_approval");

    // When the issuer approves alice's account
    await approveAsIssuer(given.world, given.alice.account.publicKey);

    // Then the service reads it from the chain: alice is ready, bob still waits
    expect(await statusOf(given.alice)).toBe("ready");
    expect(await statusOf(given.bob)).toBe("awaiting_approval");
    await given.world.fund(given.alice.account, { confidential: usdg(50), public: usdg(20) });
    await given.world.fund(given.bob.account, { public: usdg(10) });
  });

  it("refuses a confidential transfer to an account awaiting approval", async () => {
    // When alice sends confidentially to @bob
    const refusal = await refusalOf(
      given.alice.client.call("createTransfer", { body: { to: "@bob", amount: "1" } }),
    );

    // Then it is the spec's 422, naming the recipient
    expect(refusal.status).toBe(422);
    expect(refusal.code).toBe("recipient_not_confidential_ready");
    expect(refusal.message).toContain("not approved");
  });

  it("refuses the unapproved account's own confidential send before anything is made or paid", async () => {
    // Given the fee reserve's state
    const reserve = given.world.service.context.feePayer.address;
    const before = await signerState(given.world.chain, reserve);

    // When bob sends confidentially to @alice
    const refusal = await refusalOf(
      given.bob.client.call("createTransfer", { body: { to: "@alice", amount: "1" } }),
    );

    // Then it is refused clearly
    expect(refusal).toBeInstanceOf(ApiRequestError);
    expect(refusal.status).toBe(409);
    expect(refusal.code).toBe("confidential_account_not_approved");
    expect(refusal.message).toContain("awaits the issuer's approval");
    // ... no transfer was recorded and the fee reserve signed and paid nothing
    expect((await given.bob.client.call("listTransfers", { query: {} })).total).toBe(0);
    expect(await signerState(given.world.chain, reserve)).toEqual(before);
  });

  it("moves public USDG to and from the account awaiting approval", async () => {
    // Given both public balances
    const [aliceBefore, bobBefore] = [await publicBalance(given.alice), await publicBalance(given.bob)];

    // When alice sends 3 USDG publicly to @bob, and bob 1 USDG publicly to @alice
    const toBob = await given.alice.client.call("createTransfer", {
      body: { to: "@bob", amount: "3", confidential: false },
    });
    const toAlice = await given.bob.client.call("createTransfer", {
      body: { to: "@alice", amount: "1", confidential: false },
    });

    // Then both settle and exactly those amounts moved
    expect((await settled(given.alice.client, toBob.transfer_id)).status).toBe("confirmed");
    expect((await settled(given.bob.client, toAlice.transfer_id)).status).toBe("confirmed");
    expect(await publicBalance(given.alice)).toBe(aliceBefore - usdg(3) + usdg(1));
    expect(await publicBalance(given.bob)).toBe(bobBefore + usdg(3) - usdg(1));
    // ... and bob is still awaiting approval
    expect(await statusOf(given.bob)).toBe("awaiting_approval");
  });

  it("after the issuer's approval, moves confidentially both ways, each amount readable by the auditor", async () => {
    // When the issuer approves bob's account (no restart of anything)
    await approveAsIssuer(given.world, given.bob.account.publicKey);

    // Then bob is ready, and can be funded confidentially
    expect(await statusOf(given.bob)).toBe("ready");
    await given.world.fund(given.bob.account, { confidential: usdg(5) });

    // When alice sends 2.5 USDG confidentially to @bob, and bob 1.25 USDG to @alice
    const toBob = await given.alice.client.call("createTransfer", { body: { to: "@bob", amount: "2.5" } });
    const toAlice = await given.bob.client.call("createTransfer", { body: { to: "@alice", amount: "1.25" } });

    // Then both settle confirmed
    expect((await settled(given.alice.client, toBob.transfer_id)).status).toBe("confirmed");
    expect((await settled(given.bob.client, toAlice.transfer_id)).status).toBe("confirmed");
    // ... and the auditor's secret decrypts each transfer's amount from its on-chain ciphertexts
    expect(await audited(toBob.tx_signature)).toEqual([2_500_000n]);
    expect(await audited(toAlice.tx_signature)).toEqual([1_250_000n]);
  });

  it("gives the auditor an agent's confidential transfer too", async () => {
    // Given an agent of alice's, approved by the issuer and funded
    const created = await given.alice.client.call("createAgent", {
      body: { name: "bot", spend_policy: TEST_POLICY },
    });
    const agent = await given.world.accountRow(created.account_id);
    const agentClient = given.world.clientFor(await given.world.keyFor(agent.id));
    expect((await agentClient.call("getMe", {})).confidential_status).toBe("awaiting_approval");
    await approveAsIssuer(given.world, agent.publicKey);
    expect((await agentClient.call("getMe", {})).confidential_status).toBe("ready");
    await given.world.fund(agent, { confidential: usdg(10) });

    // When the agent sends 4.2 USDG confidentially to @bob
    const transfer = await agentClient.call("createTransfer", { body: { to: "@bob", amount: "4.2" } });

    // Then it settles, and the auditor decrypts its amount from the program's CPI into Token-2022
    expect((await settled(agentClient, transfer.transfer_id)).status).toBe("confirmed");
    expect(await audited(transfer.tx_signature)).toEqual([4_200_000n]);
  });

  it("gives the auditor a self-custody agent's confidential transfer through the relay", async () => {
    // Given a self-custody agent of alice's, approved by the issuer and funded, and its own client
    const solo = await createSelfCustodyAgent(given.world, given.alice, "solo");
    await approveAsIssuer(given.world, solo.pda);
    await given.world.fund(await given.world.accountRow(solo.created.account_id), { confidential: usdg(10) });
    const client = selfCustodyClient(
      given.world,
      solo,
      agentKeysFromOwnerSecret(given.alice.confidentialSecret, "alice/solo"),
    );

    // When it pays @bob 0.75 USDG confidentially, signing itself, the service relaying
    const { signatures } = await client.transfer({
      recipient: address(given.bob.account.publicKey),
      amount: 750_000n,
      confidential: true,
    });

    // Then the auditor decrypts its amount from the landed transfer (the final submission's
    // transactions hold the one Token-2022 Transfer)
    const amounts = await Promise.all(signatures.map((signature) => audited(signature)));
    expect(amounts.flat()).toEqual([750_000n]);
  });
});
