/**
 * While a confidential hold is open the agent's available balance is frozen — the held proofs were
 * made against it — so the program refuses apply, withdraw and every other outgoing transfer; an
 * approval needs a policy no tighter than the one proven, and counts toward the day of approval.
 * Then the two paths meet in one daily limit: a confidential spend counts today's public spend,
 * and a public spend is refused on a day the agent spent confidentially.
 */
import {
  agentPolicyErrorOf,
  approveConfidentialHold,
  buildAgentConfidentialApplyInstruction,
  buildAgentConfidentialTransferInstruction,
  buildAgentConfidentialWithdrawInstruction,
  depositAgentConfidential,
  readAgentAccount,
  rejectHold,
} from "@cpay/sdk/agent-confidential";
import { readConfidentialState } from "@cpay/sdk/confidential";
import { type Address, address, generateKeyPairSigner } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AgentConfidentialWorld,
  createAgentConfidentialWorld,
} from "../support/agent-confidential-world";
import { transferId, usdg, utc } from "../support/policy-world";
import { expectRefusedByProgram } from "../support/refused-by-program";

describe("a confidential hold freezes the agent's balance", () => {
  let world: AgentConfidentialWorld;
  let pending: Address;

  beforeAll(async () => {
    world = await createAgentConfidentialWorld();
    await world.setupAgent();
    await world.fundAgent(usdg(300));
    await world.confidentialRecipient("bob");
  });

  /** The agent account's available ciphertext and its AE copy: what the held proofs were made against. */
  const frozen = () => {
    const state = readConfidentialState(world.cluster, world.agent.usdg);
    if (state === null) throw new Error("not configured");
    return [state.availableBalance, state.decryptableAvailableBalance];
  };

  it("Given a held transfer, When apply, withdraw, another confidential transfer or a public transfer is sent, Then the program refuses each (ConfidentialHoldOpen) and the available balance is byte-identical", async () => {
    const held = await world.confidentialTransfer({ amount: usdg(60) });
    expect(held.outcome).toBe("held");
    pending = held.pending ?? ("" as Address);
    const before = frozen();
    const programAddress = address(world.cluster.programId);
    const signer = world.agent.signer;
    const dummy = (await generateKeyPairSigner()).address;

    // A deposit is allowed (public -> pending), so there is something to apply.
    await depositAgentConfidential(world.cluster, {
      authority: signer,
      agent: world.agent.address,
      mint: world.usdgMint,
      amount: usdg(5),
      payer: world.feePayer,
    });
    const apply = await world.send(
      [
        buildAgentConfidentialApplyInstruction({
          authority: signer,
          agent: world.agent.address,
          tokenAccount: world.agent.usdg,
          expectedPendingBalanceCreditCounter: 1n,
          newDecryptableAvailableBalance: new Uint8Array(36),
          programAddress,
        }),
      ],
      { signers: [signer] },
    );
    const withdraw = await world.send(
      [
        buildAgentConfidentialWithdrawInstruction({
          authority: signer,
          agent: world.agent.address,
          tokenAccount: world.agent.usdg,
          mint: world.usdgMint,
          equalityProof: dummy,
          rangeProof: dummy,
          amount: 1n,
          newDecryptableAvailableBalance: new Uint8Array(36),
          programAddress,
        }),
      ],
      { signers: [signer] },
    );
    const contexts = {
      equalityProof: dummy,
      ciphertextValidityProof: dummy,
      rangeProof: dummy,
      limitEqualityTransaction: dummy,
      limitEqualityDaily: dummy,
      limitRangeProof: dummy,
    };
    const bob = await world.confidentialRecipient("bob");
    const transfer = await buildAgentConfidentialTransferInstruction({
      agentSigner: signer,
      agent: world.agent.address,
      nextHoldNonce: readAgentAccount(world.cluster, world.agent.address).nextHoldNonce,
      source: world.agent.usdg,
      mint: world.usdgMint,
      destination: bob.usdg,
      contexts,
      contextRentReceiver: world.feePayer.address,
      payer: world.feePayer,
      transferId: transferId(77),
      newSourceDecryptableAvailableBalance: new Uint8Array(36),
      spendDecryptable: new Uint8Array(36),
      spendDecryptableNextDay: new Uint8Array(36),
      requestHold: false,
      programAddress,
    });
    const confidential = await world.send([transfer.instruction], { signers: [signer] });
    const publicTransfer = await world.transfer({ amount: usdg(1) });
    expect([apply.error, withdraw.error, confidential.error, publicTransfer.error]).toEqual(
      Array(4).fill("ConfidentialHoldOpen"),
    );
    expect(frozen()).toEqual(before);
  });

  it("Given the owner lowered the per-transaction limit below what was proven, Then approval is refused (ConfidentialHoldPolicyTightened) and rejecting still releases the hold", async () => {
    expect((await world.updatePolicy({ per_transaction_limit_usdg: "59" })).err).toBeNull();
    const refused = await approveConfidentialHold(world.cluster, {
      owner: world.agent.owner,
      pending,
      payer: world.feePayer,
    }).catch((caught: unknown) => caught);
    expect(agentPolicyErrorOf(refused)?.name).toBe("ConfidentialHoldPolicyTightened");
    await rejectHold(world.cluster, { owner: world.agent.owner, pending, payer: world.feePayer });
    expect(readAgentAccount(world.cluster, world.agent.address).confidentialHold).toBeNull();
    expect(world.proverState().confidentialSpentToday).toBe(0n);
    expect((await world.updatePolicy({ per_transaction_limit_usdg: "100" })).err).toBeNull();
  });

  it("Given a hold approved on the next UTC day, Then it executes and counts toward that day", async () => {
    const held = await world.confidentialTransfer({ amount: usdg(70) });
    const recipientBefore = await world.recipientPending();
    world.at(utc(1, 9));
    await approveConfidentialHold(world.cluster, {
      owner: world.agent.owner,
      pending: held.pending ?? ("" as Address),
      payer: world.feePayer,
    });
    expect(await world.recipientPending()).toBe(recipientBefore + usdg(70));
    expect(world.proverState()).toMatchObject({
      today: utc(1, 9) / 86_400n,
      confidentialSpentToday: usdg(70),
    });
  });

  it("Given a confidential spend today, Then a public transfer is refused (PublicSpendAfterConfidential) and allowed again the next UTC day", async () => {
    expect((await world.transfer({ amount: usdg(1) })).error).toBe("PublicSpendAfterConfidential");
    world.at(utc(2, 9));
    expect((await world.transfer({ amount: usdg(30) })).err).toBeNull();
  });

  it("Given 30 spent publicly today, Then the program counts it: a client proving the daily limit without it is refused", async () => {
    expect(world.proverState().publicSpentToday).toBe(usdg(30));
    await expectRefusedByProgram(
      world,
      () => world.confidentialTransfer({ amount: usdg(10), unsafeForgedLimits: { publicSpentToday: 0n } }),
      "LimitProofMismatch",
    );
    expect((await world.confidentialTransfer({ amount: usdg(10) })).outcome).toBe("executed");
    expect(world.proverState()).toMatchObject({
      publicSpentToday: usdg(30),
      confidentialSpentToday: usdg(10),
    });
  });
});
