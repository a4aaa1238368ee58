/**
 * agent_create on the real program: the owner of a registered personal or business handle creates
 * `<owner>/<name>`: the Agent PDA (the agent's address), its Policy (version 1, nothing spent
 * today) and the agent's own Handle (kind agent, wallet = the agent PDA), emitting AgentCreated
 * only. Refusals change nothing.
 */
import {
  buildAgentCreateInstruction,
  encodeSpendPolicy,
  findAgentPda,
  findHandlePda,
  findPolicyPda,
  getAgentCreateInstruction,
  getHandleDecoder,
} from "@cpay/sdk";
import type { Address, Instruction } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { accountBytes } from "../support/plant-account";
import { createPolicyWorld, DEFAULT_POLICY, usdg, utc, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

describe("agent_create", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));
  /** Sends `instruction`: the program refuses it with `error` and nothing changes (nor `extra`). */
  const expectSendRefused = (error: string, instruction: Instruction, extra: readonly Address[] = []) =>
    expectRefusedUnchanged(given.world, error, () => given.world.send([instruction]), { extra });

  const createHelper = (overrides: { name?: string; agentSigner?: Address } = {}) =>
    buildAgentCreateInstruction({
      owner: given.world.alice.wallet,
      ownerHandle: "alice",
      name: overrides.name ?? "helper",
      agentSigner: overrides.agentSigner ?? given.world.stranger.address,
      policy: { ...DEFAULT_POLICY, allowed_recipients: ["*.acme"], active_hours: "08:00-18:00" },
      payer: given.world.feePayer,
      assets: given.world.assets,
    });

  it("creates the agent, its policy and its handle", async () => {
    given.world.at(utc(0, 9));
    const created = await createHelper();
    const outcome = await given.world.send([created.instruction]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(eventNames(outcome)).toEqual(["AgentCreated"]);
    expect(outcome.events[0]?.data).toMatchObject({
      agent: created.agent,
      owner: given.world.alice.wallet.address,
      agentSigner: given.world.stranger.address,
      policy: created.policy,
      handle: "alice/helper",
    });
    const helper = { ...given.world.agent, address: created.agent, policy: created.policy };
    expect(given.world.readAgent(helper)).toMatchObject({
      owner: given.world.alice.wallet.address,
      agentSigner: given.world.stranger.address,
      status: 1,
      nextHoldNonce: 0n,
      openHolds: 0,
      createdAt: utc(0, 9),
    });
    expect(given.world.readPolicy(helper)).toMatchObject({
      agent: created.agent,
      version: 1,
      perTransactionLimit: usdg(100),
      dailyLimit: usdg(250),
      hitlThreshold: usdg(50),
      activeStartMinute: 480,
      activeEndMinute: 1080,
      mintCount: 1,
      patternCount: 1,
      dayIndex: utc(0, 9) / 86_400n,
      spentToday: 0n,
      updatedAt: utc(0, 9),
    });
    const [handle] = await findHandlePda({ handle: "alice/helper" });
    expect(getHandleDecoder().decode(accountBytes(given.world.cluster, handle))).toMatchObject({
      wallet: created.agent,
      kind: 2,
    });
  });

  it("refuses the owner as the agent signer (AgentSignerIsOwner)", async () => {
    const created = await createHelper({ agentSigner: given.world.alice.wallet.address });
    await expectSendRefused("AgentSignerIsOwner", created.instruction, [created.agent, created.policy]);
  });

  it("refuses an owner who does not hold the owner handle (NotAgentOwner)", async () => {
    const created = await buildAgentCreateInstruction({
      owner: given.world.recipients.bob.wallet,
      ownerHandle: "alice",
      name: "helper",
      agentSigner: given.world.stranger.address,
      policy: DEFAULT_POLICY,
      payer: given.world.feePayer,
      assets: given.world.assets,
    });
    await expectSendRefused("NotAgentOwner", created.instruction, [created.agent, created.policy]);
  });

  it("refuses an agent's handle as the owner handle: agents cannot own agents", async () => {
    const created = await createHelper();
    const underAgent = withAccount(created.instruction, 1, { address: given.world.agent.handleAccount });
    await expectSendRefused("HandleKindNotAllowed", underAgent, [created.agent, created.policy]);
  });

  it("refuses a name that is taken (AccountAlreadyInitialized)", async () => {
    const again = await createHelper({ name: "bot" });
    await expectSendRefused("AccountAlreadyInitialized", again.instruction);
  });

  it("refuses an agent handle over 64 bytes (InvalidHandle)", async () => {
    // Given a 32-byte owner handle: with a 32-byte name, "<owner>/<name>" is 65 bytes
    const owner = await given.world.registerParty("o".repeat(32));
    const [agent] = await findAgentPda({ agentHandle: `${"o".repeat(32)}/${"n".repeat(31)}` });
    const [policy] = await findPolicyPda({ agent });
    const raw = getAgentCreateInstruction({
      owner: owner.wallet,
      ownerHandle: owner.handleAccount,
      agent,
      policy,
      agentHandle: (await findHandlePda({ handle: "carol" }))[0],
      payer: given.world.feePayer,
      name: "n".repeat(32),
      agentSigner: given.world.stranger.address,
      policyArg: encodeSpendPolicy(DEFAULT_POLICY, { assets: given.world.assets }),
    });
    await expectSendRefused("InvalidHandle", raw, [agent, policy]);
  });

  it("refuses an invalid policy before creating anything (InvalidApprovalWindow)", async () => {
    const created = await createHelper();
    const policyArg = {
      ...encodeSpendPolicy(DEFAULT_POLICY, { assets: given.world.assets }),
      approvalWindowSeconds: 0,
    };
    const accounts = created.instruction.accounts;
    const raw = getAgentCreateInstruction({
      owner: given.world.alice.wallet,
      ownerHandle: accounts[1].address,
      agent: created.agent,
      policy: created.policy,
      agentHandle: accounts[4].address,
      payer: given.world.feePayer,
      name: "helper",
      agentSigner: given.world.stranger.address,
      policyArg,
    });
    await expectSendRefused("InvalidApprovalWindow", raw, [
      created.agent,
      created.policy,
      accounts[4].address,
    ]);
  });
});
