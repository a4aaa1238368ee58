/**
 * While a confidential hold is open the agent's available balance is frozen — the held proofs were
 * made against it — so the program refuses apply, withdraw and every other outgoing transfer
 * (confidential, public, and approving another hold); an approval executes the pinned transfer
 * when the policy is no tighter than the one proven, and counts toward the day of approval.
 * Policy: per transaction 100, daily 250, HITL 50 USDG.
 */
import {
  agentPolicyErrorOf,
  approveConfidentialHold,
  buildAgentConfidentialApplyInstruction,
  buildAgentConfidentialTransferInstruction,
  buildAgentConfidentialWithdrawInstruction,
  depositAgentConfidential,
  type Hold,
  readAgentAccount,
  rejectHold,
} from "@cpay/sdk/agent-confidential";
import { tokenAccountOf } from "@cpay/sdk/confidential";
import { type Address, address, generateKeyPairSigner } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import { SECONDS_PER_DAY, transferId, usdg, utc } from "../support/policy-world";
import { worldChangesBy } from "../support/refused-by-program";

describe("a confidential hold freezes the agent's balance", () => {
  const given = fundedAgentSuite({ funds: usdg(300), recipient: "bob" });
  let publicHold: Address;

  /** The agent account's available ciphertext and its AE copy: what the held proofs were made against. */
  const frozen = () => {
    // The suite's own synchronous read of the simulator.
    const state =
      tokenAccountOf(given.world.agent.usdg, given.world.cluster.getAccount(given.world.agent.usdg))
        ?.confidential ?? null;
    if (state === null) throw new Error("not configured");
    return [state.availableBalance, state.decryptableAvailableBalance];
  };

  /** A confidential hold of `amount` (above the HITL threshold), listed with its pinned contexts. */
  const hold = async (amount: bigint): Promise<Hold> => {
    const held = await given.world.confidentialTransfer({ amount });
    expect(held.outcome).toBe("held");
    const listed = (await given.world.holds()).find((each) => each.address === held.pending);
    if (listed === undefined) throw new Error("the hold is not listed");
    return listed;
  };

  const approve = (pending: Address) =>
    approveConfidentialHold(given.world.chain, {
      owner: given.world.agent.owner,
      pending,
      payer: given.world.feePayer,
    });

  /** The hold is gone: the agent has no confidential hold, the hold's account and contexts are closed. */
  const expectHoldGone = async (gone: Hold) => {
    expect(
      (await readAgentAccount(given.world.chain, given.world.agent.address)).confidentialHold,
    ).toBeNull();
    expect(given.world.cluster.getAccount(gone.address)).toBeNull();
    for (const context of Object.values(gone.contexts ?? {}))
      expect(given.world.cluster.getAccount(context)).toBeNull();
  };

  let open: Hold;

  it("Given a held transfer, When apply, withdraw, another confidential transfer, a public transfer or the approval of a public hold is sent, Then the program refuses each (ConfidentialHoldOpen), nothing changes and the available balance is byte-identical", async () => {
    // A public hold from before the confidential one: approving it would move funds out too.
    publicHold = await given.world.pendingAddress(given.world.readAgent().nextHoldNonce);
    expect((await given.world.transfer({ amount: usdg(60) })).err).toBeNull();
    expect(given.world.readPending(publicHold)?.amount).toBe(usdg(60));
    open = await hold(usdg(60));
    // A deposit is allowed (public -> pending), so there is something to apply.
    await depositAgentConfidential(given.world.chain, {
      authority: given.world.agent.signer,
      agent: given.world.agent.address,
      mint: given.world.usdgMint,
      amount: usdg(5),
      payer: given.world.feePayer,
    });
    const before = frozen();
    const programAddress = address(given.world.cluster.programId);
    const signer = given.world.agent.signer;
    const dummy = (await generateKeyPairSigner()).address;
    const bob = await given.world.confidentialRecipient("bob");
    const refusals: (string | null)[] = [];

    const changes = await worldChangesBy(given.world, async () => {
      const apply = buildAgentConfidentialApplyInstruction({
        authority: signer,
        agent: given.world.agent.address,
        tokenAccount: given.world.agent.usdg,
        expectedPendingBalanceCreditCounter: 1n,
        newDecryptableAvailableBalance: new Uint8Array(36),
        programAddress,
      });
      const withdraw = buildAgentConfidentialWithdrawInstruction({
        authority: signer,
        agent: given.world.agent.address,
        tokenAccount: given.world.agent.usdg,
        mint: given.world.usdgMint,
        equalityProof: dummy,
        rangeProof: dummy,
        amount: 1n,
        newDecryptableAvailableBalance: new Uint8Array(36),
        programAddress,
      });
      const transfer = await buildAgentConfidentialTransferInstruction({
        agentSigner: signer,
        agent: given.world.agent.address,
        nextHoldNonce: (await readAgentAccount(given.world.chain, given.world.agent.address)).nextHoldNonce,
        source: given.world.agent.usdg,
        mint: given.world.usdgMint,
        destination: bob.usdg,
        contexts: {
          equalityProof: dummy,
          ciphertextValidityProof: dummy,
          rangeProof: dummy,
          limitEqualityTransaction: dummy,
          limitEqualityDaily: dummy,
          limitRangeProof: dummy,
        },
        contextRentReceiver: given.world.feePayer.address,
        payer: given.world.feePayer,
        transferId: transferId(77),
        newSourceDecryptableAvailableBalance: new Uint8Array(36),
        spendDecryptable: new Uint8Array(36),
        spendDecryptableNextDay: new Uint8Array(36),
        requestHold: false,
        programAddress,
      });
      for (const instruction of [apply, withdraw, transfer.instruction]) {
        refusals.push((await given.world.send([instruction], { signers: [signer] })).error);
      }
      refusals.push((await given.world.transfer({ amount: usdg(1) })).error);
      refusals.push((await given.world.approve(publicHold)).error);
    });
    expect(refusals).toEqual(Array(5).fill("ConfidentialHoldOpen"));
    expect(changes).toEqual([]);
    expect(frozen()).toEqual(before);
    expect((await readAgentAccount(given.world.chain, given.world.agent.address)).confidentialHold).toBe(
      open.address,
    );
  });

  it("Given the hold, When the owner approves it, Then the pinned transfer executes: the recipient decrypts the amount, the hold and its contexts are gone", async () => {
    const available = given.world.agentAvailable();
    const pending = await given.world.recipientPending();
    await approve(open.address);
    expect(await given.world.recipientPending()).toBe(pending + usdg(60));
    expect(given.world.agentAvailable()).toBe(available - usdg(60));
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(60));
    await expectHoldGone(open);
    // Nothing is frozen any more: the agent decides the public hold itself (rejected, to keep the day clean).
    await rejectHold(given.world.chain, {
      owner: given.world.agent.owner,
      pending: publicHold,
      payer: given.world.feePayer,
    });
    expect(given.world.readPending(publicHold)).toBeNull();
  });

  it("Given the owner lowered the per-transaction or the daily limit below what a hold proved, Then approval is refused (ConfidentialHoldPolicyTightened) with nothing changed, and rejecting still releases the hold", async () => {
    const tight = await hold(usdg(70));
    expect([tight.provenPerTransactionLimit, tight.provenDailyLimit]).toEqual([usdg(100), usdg(250)]);
    const available = given.world.agentAvailable();
    const pending = await given.world.recipientPending();
    for (const update of [{ per_transaction_limit_usdg: "69.999999" }, { daily_limit_usdg: "249.999999" }]) {
      expect((await given.world.updatePolicy(update)).err).toBeNull();
      let refused: unknown = null;
      const changes = await worldChangesBy(given.world, async () => {
        refused = await approve(tight.address).catch((caught: unknown) => caught);
      });
      expect(agentPolicyErrorOf(refused)?.name).toBe("ConfidentialHoldPolicyTightened");
      expect(changes).toEqual([]);
      expect(
        (await given.world.updatePolicy({ per_transaction_limit_usdg: "100", daily_limit_usdg: "250" })).err,
      ).toBeNull();
    }
    // Tightened once more, then rejected: released, nothing moved.
    expect((await given.world.updatePolicy({ per_transaction_limit_usdg: "69" })).err).toBeNull();
    await rejectHold(given.world.chain, {
      owner: given.world.agent.owner,
      pending: tight.address,
      payer: given.world.feePayer,
    });
    await expectHoldGone(tight);
    expect(given.world.agentAvailable()).toBe(available);
    expect(await given.world.recipientPending()).toBe(pending);
    expect(given.world.proverState().confidentialSpentToday).toBe(usdg(60));
    expect((await given.world.updatePolicy({ per_transaction_limit_usdg: "100" })).err).toBeNull();
  });

  it("Given a hold made on a day with 60 spent, When it is approved on the next UTC day, Then it executes and counts toward that day only (prover state total = the held amount)", async () => {
    const held = await hold(usdg(70));
    expect(held.holdDay).toBe(utc(0, 12) / SECONDS_PER_DAY);
    const recipientBefore = await given.world.recipientPending();
    given.world.at(utc(1, 9));
    await approve(held.address);
    expect(await given.world.recipientPending()).toBe(recipientBefore + usdg(70));
    expect(given.world.readPolicy().dayIndex).toBe(utc(1, 9) / SECONDS_PER_DAY);
    expect(given.world.proverState()).toMatchObject({
      today: utc(1, 9) / SECONDS_PER_DAY,
      confidentialSpentToday: usdg(70),
      source: "decryptable",
    });
  });
});
