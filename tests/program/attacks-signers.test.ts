/**
 * Attacks on who may act, on the real program. Each attempt must fail with the program's error
 * AND change nothing: every balance and every byte of the program's accounts is compared before
 * and after (the attacker's fee aside). Only the agent signer spends; only the owner approves,
 * rejects and edits; one owner has no power over another owner's agent.
 */
import type { Address } from "@solana/kit";
import { beforeEach, describe, expect, it } from "vitest";
import {
  AccountRole,
  createPolicyWorld,
  type PolicyWorld,
  usdg,
  type WorldAgent,
  withAccount,
} from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";

describe("attacks: signers and owners", () => {
  let world: PolicyWorld;
  let pending: Address;
  let bobBot: WorldAgent;

  beforeEach(async () => {
    // Given alice/bot has a 60 USDG spend held, and bob owns an agent of his own (bob/bot)
    world = await createPolicyWorld();
    pending = await world.pendingAddress(0n);
    expect((await world.transfer({ amount: usdg(60) })).err).toBeNull();
    bobBot = await world.createAgent({ owner: "bob", name: "bot" });
  });

  const extra = () => [pending];

  describe("agent_transfer signed by anyone but the agent signer", () => {
    it.each(["owner", "stranger"] as const)("refuses the %s with NotAgentSigner", async (who) => {
      const signer = who === "owner" ? world.agent.owner : world.stranger;
      await expectRefusedUnchanged(
        world,
        "NotAgentSigner",
        () => world.transfer({ amount: 1n, agentSigner: signer }),
        {
          extra: extra(),
        },
      );
    });

    it("refuses the agent signer's key passed without its signature (MissingSigner)", async () => {
      const unsigned = withAccount(await world.transferInstruction({ amount: 1n }), 0, {
        address: world.agent.signer.address,
        role: AccountRole.READONLY,
      });
      await expectRefusedUnchanged(world, "MissingSigner", () => world.send([unsigned]), { extra: extra() });
    });
  });

  describe("the agent signer acting as the owner", () => {
    it.each([
      ["approve its own hold", () => world.approve(pending, { owner: world.agent.signer })],
      ["reject its own hold", () => world.reject(pending, { owner: world.agent.signer })],
      [
        "edit its policy",
        () => world.updatePolicy({ per_transaction_limit_usdg: "1000000" }, { owner: world.agent.signer }),
      ],
    ] as const)("cannot %s (NotAgentOwner)", async (_, act) => {
      await expectRefusedUnchanged(world, "NotAgentOwner", act, { extra: extra() });
    });
  });

  describe("owner B (bob) against owner A's agent (alice/bot)", () => {
    it("cannot approve A's hold (NotAgentOwner)", async () => {
      await expectRefusedUnchanged(
        world,
        "NotAgentOwner",
        () => world.approve(pending, { owner: bobBot.owner }),
        {
          extra: extra(),
        },
      );
    });

    it("cannot approve A's hold through B's own agent and policy (WrongPendingTransaction)", async () => {
      let approve = await world.approveInstruction(pending, { owner: bobBot.owner });
      approve = withAccount(approve, 1, { address: bobBot.address });
      approve = withAccount(approve, 2, { address: bobBot.policy });
      await expectRefusedUnchanged(world, "WrongPendingTransaction", () => world.send([approve]), {
        extra: extra(),
      });
    });

    it("cannot reject A's hold, directly or through B's agent", async () => {
      const direct = await world.attempt(() => world.reject(pending, { owner: bobBot.owner }), {
        extra: extra(),
      });
      expect(direct.outcome.error).toBe("NotAgentOwner");
      expect(direct.changes).toEqual([]);
      const viaOwnAgent = withAccount(world.rejectInstruction(pending, { owner: bobBot.owner }), 1, {
        address: bobBot.address,
      });
      const indirect = await world.attempt(() => world.send([viaOwnAgent]), { extra: extra() });
      expect(indirect.outcome.error).toBe("WrongPendingTransaction");
      expect(indirect.changes).toEqual([]);
    });

    it("cannot edit A's policy (NotAgentOwner), nor through B's agent (WrongPda)", async () => {
      const direct = await world.attempt(
        () => world.updatePolicy({ daily_limit_usdg: "1000000" }, { owner: bobBot.owner }),
        { extra: extra() },
      );
      expect(direct.outcome.error).toBe("NotAgentOwner");
      expect(direct.changes).toEqual([]);
      const viaOwnAgent = withAccount(
        await world.updatePolicyInstruction({ daily_limit_usdg: "1000000" }, { agent: bobBot }),
        2,
        { address: world.agent.policy },
      );
      const indirect = await world.attempt(() => world.send([viaOwnAgent]), { extra: extra() });
      expect(indirect.outcome.error).toBe("WrongPda");
      expect(indirect.changes).toEqual([]);
    });

    it("cannot spend A's tokens with B's agent and its signer (WrongTokenAccount)", async () => {
      await expectRefusedUnchanged(
        world,
        "WrongTokenAccount",
        () => world.transfer({ amount: 1n, agent: bobBot, source: world.agent.usdg }),
        { extra: extra() },
      );
    });
  });

  it("refuses the owner's key in approve without its signature (MissingSigner)", async () => {
    const unsigned = withAccount(await world.approveInstruction(pending), 0, {
      address: world.agent.owner.address,
      role: AccountRole.READONLY,
    });
    await expectRefusedUnchanged(world, "MissingSigner", () => world.send([unsigned]), { extra: extra() });
  });
});
