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
      const { outcome, changes } = await world.attempt(
        () => world.transfer({ amount: 1n, agentSigner: signer }),
        {
          extra: extra(),
        },
      );
      expect(outcome.error).toBe("NotAgentSigner");
      expect(changes).toEqual([]);
    });

    it("refuses the agent signer's key passed without its signature (MissingSigner)", async () => {
      const unsigned = withAccount(await world.transferInstruction({ amount: 1n }), 0, {
        address: world.agent.signer.address,
        role: AccountRole.READONLY,
      });
      const { outcome, changes } = await world.attempt(() => world.send([unsigned]), { extra: extra() });
      expect(outcome.error).toBe("MissingSigner");
      expect(changes).toEqual([]);
    });
  });

  describe("the agent signer acting as the owner", () => {
    it("cannot approve its own hold (NotAgentOwner)", async () => {
      const { outcome, changes } = await world.attempt(
        () => world.approve(pending, { owner: world.agent.signer }),
        { extra: extra() },
      );
      expect(outcome.error).toBe("NotAgentOwner");
      expect(changes).toEqual([]);
    });

    it("cannot reject its own hold (NotAgentOwner)", async () => {
      const { outcome, changes } = await world.attempt(
        () => world.reject(pending, { owner: world.agent.signer }),
        { extra: extra() },
      );
      expect(outcome.error).toBe("NotAgentOwner");
      expect(changes).toEqual([]);
    });

    it("cannot edit its policy (NotAgentOwner)", async () => {
      const { outcome, changes } = await world.attempt(
        () => world.updatePolicy({ per_transaction_limit_usdg: "1000000" }, { owner: world.agent.signer }),
        { extra: extra() },
      );
      expect(outcome.error).toBe("NotAgentOwner");
      expect(changes).toEqual([]);
    });
  });

  describe("owner B (bob) against owner A's agent (alice/bot)", () => {
    it("cannot approve A's hold (NotAgentOwner)", async () => {
      const { outcome, changes } = await world.attempt(
        () => world.approve(pending, { owner: bobBot.owner }),
        {
          extra: extra(),
        },
      );
      expect(outcome.error).toBe("NotAgentOwner");
      expect(changes).toEqual([]);
    });

    it("cannot approve A's hold through B's own agent and policy (WrongPendingTransaction)", async () => {
      let approve = await world.approveInstruction(pending, { owner: bobBot.owner });
      approve = withAccount(approve, 1, { address: bobBot.address });
      approve = withAccount(approve, 2, { address: bobBot.policy });
      const { outcome, changes } = await world.attempt(() => world.send([approve]), { extra: extra() });
      expect(outcome.error).toBe("WrongPendingTransaction");
      expect(changes).toEqual([]);
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
      const { outcome, changes } = await world.attempt(
        () => world.transfer({ amount: 1n, agent: bobBot, source: world.agent.usdg }),
        { extra: extra() },
      );
      expect(outcome.error).toBe("WrongTokenAccount");
      expect(changes).toEqual([]);
    });
  });

  it("refuses the owner's key in approve without its signature (MissingSigner)", async () => {
    const unsigned = withAccount(await world.approveInstruction(pending), 0, {
      address: world.agent.owner.address,
      role: AccountRole.READONLY,
    });
    const { outcome, changes } = await world.attempt(() => world.send([unsigned]), { extra: extra() });
    expect(outcome.error).toBe("MissingSigner");
    expect(changes).toEqual([]);
  });
});
