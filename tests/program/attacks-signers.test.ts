import { describe, expect, it } from "vitest";
import { holdSpend } from "../support/held-spend";
import { AccountRole, createPolicyWorld, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

describe("attacks: signers and owners", () => {
  const given = perTestCase(async () => {
    // Given alice/bot has a 60 USDG spend held, and bob owns an agent of his own (bob/bot)
    const world = await createPolicyWorld();
    const pending = await holdSpend(world);
    return { world, pending, bobBot: await world.createAgent({ owner: "bob", name: "bot" }) };
  });

  const extra = () => [given.pending];

  describe("agent_transfer signed by anyone but the agent signer", () => {
    it.each(["owner", "stranger"] as const)("refuses the %s with NotAgentSigner", async (who) => {
      const signer = who === "owner" ? given.world.agent.owner : given.world.stranger;
      await expectRefusedUnchanged(
        given.world,
        "NotAgentSigner",
        () => given.world.transfer({ amount: 1n, agentSigner: signer }),
        {
          extra: extra(),
        },
      );
    });

    it("refuses the agent signer's key passed without its signature (MissingSigner)", async () => {
      const unsigned = withAccount(await given.world.transferInstruction({ amount: 1n }), 0, {
        address: given.world.agent.signer.address,
        role: AccountRole.READONLY,
      });
      await expectRefusedUnchanged(given.world, "MissingSigner", () => given.world.send([unsigned]), {
        extra: extra(),
      });
    });
  });

  describe("the agent signer acting as the owner", () => {
    it.each([
      ["approve its own hold", () => given.world.approve(given.pending, { owner: given.world.agent.signer })],
      ["reject its own hold", () => given.world.reject(given.pending, { owner: given.world.agent.signer })],
      [
        "edit its policy",
        () =>
          given.world.updatePolicy(
            { per_transaction_limit_usdg: "1000000" },
            { owner: given.world.agent.signer },
          ),
      ],
    ] as const)("cannot %s (NotAgentOwner)", async (_, act) => {
      await expectRefusedUnchanged(given.world, "NotAgentOwner", act, { extra: extra() });
    });
  });

  describe("owner B (bob) against owner A's agent (alice/bot)", () => {
    it("cannot approve A's hold (NotAgentOwner)", async () => {
      await expectRefusedUnchanged(
        given.world,
        "NotAgentOwner",
        () => given.world.approve(given.pending, { owner: given.bobBot.owner }),
        {
          extra: extra(),
        },
      );
    });

    it("cannot approve A's hold through B's own agent and policy (WrongPendingTransaction)", async () => {
      let approve = await given.world.approveInstruction(given.pending, { owner: given.bobBot.owner });
      approve = withAccount(approve, 1, { address: given.bobBot.address });
      approve = withAccount(approve, 2, { address: given.bobBot.policy });
      await expectRefusedUnchanged(
        given.world,
        "WrongPendingTransaction",
        () => given.world.send([approve]),
        {
          extra: extra(),
        },
      );
    });

    it("cannot reject A's hold, directly or through B's agent", async () => {
      const direct = await given.world.attempt(
        () => given.world.reject(given.pending, { owner: given.bobBot.owner }),
        {
          extra: extra(),
        },
      );
      expect(direct.outcome.error).toBe("NotAgentOwner");
      expect(direct.changes).toEqual([]);
      const viaOwnAgent = withAccount(
        given.world.rejectInstruction(given.pending, { owner: given.bobBot.owner }),
        1,
        {
          address: given.bobBot.address,
        },
      );
      const indirect = await given.world.attempt(() => given.world.send([viaOwnAgent]), { extra: extra() });
      expect(indirect.outcome.error).toBe("WrongPendingTransaction");
      expect(indirect.changes).toEqual([]);
    });

    it("cannot edit A's policy (NotAgentOwner), nor through B's agent (WrongPda)", async () => {
      const direct = await given.world.attempt(
        () => given.world.updatePolicy({ daily_limit_usdg: "1000000" }, { owner: given.bobBot.owner }),
        { extra: extra() },
      );
      expect(direct.outcome.error).toBe("NotAgentOwner");
      expect(direct.changes).toEqual([]);
      const viaOwnAgent = withAccount(
        await given.world.updatePolicyInstruction({ daily_limit_usdg: "1000000" }, { agent: given.bobBot }),
        2,
        { address: given.world.agent.policy },
      );
      const indirect = await given.world.attempt(() => given.world.send([viaOwnAgent]), { extra: extra() });
      expect(indirect.outcome.error).toBe("WrongPda");
      expect(indirect.changes).toEqual([]);
    });

    it("cannot spend A's tokens with B's agent and its signer (WrongTokenAccount)", async () => {
      await expectRefusedUnchanged(
        given.world,
        "WrongTokenAccount",
        () => given.world.transfer({ amount: 1n, agent: given.bobBot, source: given.world.agent.usdg }),
        { extra: extra() },
      );
    });
  });

  it("refuses the owner's key in approve without its signature (MissingSigner)", async () => {
    const unsigned = withAccount(await given.world.approveInstruction(given.pending), 0, {
      address: given.world.agent.owner.address,
      role: AccountRole.READONLY,
    });
    await expectRefusedUnchanged(given.world, "MissingSigner", () => given.world.send([unsigned]), {
      extra: extra(),
    });
  });
});
