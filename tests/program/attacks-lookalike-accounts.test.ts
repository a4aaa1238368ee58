/**
 * Attacks with look-alike accounts on the real program: the exact bytes of one of our accounts
 * (or a doctored copy) under another program's ownership, and our own accounts passed as the
 * wrong type. The program checks owner, then length and discriminator, before reading a field:
 * each attempt fails AND changes nothing.
 */
import {
  getPendingTransactionDecoder,
  getPendingTransactionEncoder,
  getPolicyDecoder,
  getPolicyEncoder,
} from "@cpay/sdk";
import { type Address, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { accountBytes, plantAccount } from "../support/plant-account";
import { createPolicyWorld, type PolicyWorld, usdg, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";
import { testKey } from "../support/test-keys";

const U64_MAX = 2n ** 64n - 1n;

describe("attacks: look-alike accounts", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));
  const attackerProgram = testKey("attacker program").address;
  const fake = testKey("look-alike").address;

  it("refuses a byte-identical policy owned by another program (WrongAccountOwner)", async () => {
    plantAccount(given.world.cluster, {
      address: fake,
      owner: attackerProgram,
      data: accountBytes(given.world.cluster, given.world.agent.policy),
    });
    const transfer = withAccount(await given.world.transferInstruction({ amount: 1n }), 2, { address: fake });
    await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([transfer]), {
      extra: [fake],
    });
  });

  it("refuses a look-alike policy with unlimited limits (WrongAccountOwner), nothing moves", async () => {
    const policy = getPolicyDecoder().decode(accountBytes(given.world.cluster, given.world.agent.policy));
    const unlimited = getPolicyEncoder().encode({
      ...policy,
      perTransactionLimit: U64_MAX,
      dailyLimit: U64_MAX,
      hitlThreshold: U64_MAX,
    });
    plantAccount(given.world.cluster, {
      address: fake,
      owner: attackerProgram,
      data: new Uint8Array(unlimited),
    });
    const transfer = withAccount(await given.world.transferInstruction({ amount: usdg(900) }), 2, {
      address: fake,
    });
    await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([transfer]), {
      extra: [fake],
    });
  });

  it("refuses a look-alike agent naming the attacker as its signer (WrongAccountOwner)", async () => {
    // Given a copy of alice/bot's Agent whose agent_signer (offset 40) is the attacker
    const bytes = accountBytes(given.world.cluster, given.world.agent.address);
    const attacker = given.world.stranger;
    bytes.set(getAddressEncoder().encode(attacker.address), 40);
    plantAccount(given.world.cluster, { address: fake, owner: attackerProgram, data: bytes });
    // When the attacker spends the agent's tokens through it
    const transfer = withAccount(
      await given.world.transferInstruction({ amount: 1n, agentSigner: attacker }),
      1,
      {
        address: fake,
      },
    );
    await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([transfer]), {
      extra: [fake],
    });
  });

  it("refuses a look-alike hold for 900 USDG put before the owner (WrongAccountOwner)", async () => {
    // Given a real 60 USDG hold, and a doctored copy of it for 900 USDG under another program
    const pending = await given.world.pendingAddress(0n);
    expect((await given.world.transfer({ amount: usdg(60) })).err).toBeNull();
    const hold = getPendingTransactionDecoder().decode(accountBytes(given.world.cluster, pending));
    plantAccount(given.world.cluster, {
      address: fake,
      owner: attackerProgram,
      data: new Uint8Array(getPendingTransactionEncoder().encode({ ...hold, amount: usdg(900) })),
    });
    // When the owner is made to approve the look-alike
    const approve = withAccount(await given.world.approveInstruction(pending), 3, { address: fake });
    const { outcome, changes } = await given.world.attempt(() => given.world.send([approve]), {
      extra: [fake, pending],
    });
    // Then it is refused and the real hold is untouched
    expect(outcome.error).toBe("WrongAccountOwner");
    expect(changes).toEqual([]);
  });

  it("refuses a look-alike recipient handle proving a name the destination does not have", async () => {
    // Given only *.acme may be paid, and a forged "pay.acme" Handle naming bob's wallet
    expect((await given.world.updatePolicy({ allowed_recipients: ["*.acme"] })).err).toBeNull();
    const forged = accountBytes(given.world.cluster, given.world.recipients["pay.acme"].handleAccount);
    forged.set(getAddressEncoder().encode(given.world.recipients.bob.wallet.address), 8);
    plantAccount(given.world.cluster, { address: fake, owner: attackerProgram, data: forged });
    // When the agent pays bob with the forged handle
    const transfer = withAccount(await given.world.transferInstruction({ amount: 1n, to: "bob" }), 6, {
      address: fake,
    });
    await expectRefusedUnchanged(given.world, "WrongAccountOwner", () => given.world.send([transfer]), {
      extra: [fake],
    });
  });

  it.each([
    ["the policy as the agent", 1, (w: PolicyWorld): Address => w.agent.policy, "WrongAccountData"],
    ["the agent as the policy", 2, (w: PolicyWorld): Address => w.agent.address, "WrongAccountData"],
    [
      "the agent's handle as the policy",
      2,
      (w: PolicyWorld): Address => w.agent.handleAccount,
      "WrongAccountData",
    ],
    ["the policy as the source", 3, (w: PolicyWorld): Address => w.agent.policy, "WrongTokenAccount"],
    [
      "a handle as the destination",
      5,
      (w: PolicyWorld): Address => w.recipients.bob.handleAccount,
      "WrongTokenAccount",
    ],
    ["a token account as the mint", 4, (w: PolicyWorld): Address => w.agent.usdg, "WrongTokenAccount"],
    ["the mint as the recipient handle", 6, (w: PolicyWorld): Address => w.usdgMint, "WrongAccountOwner"],
  ] as const)("refuses %s (type confusion)", async (_, index, swapped, error) => {
    const transfer = withAccount(await given.world.transferInstruction({ amount: 1n }), index, {
      address: swapped(given.world),
    });
    await expectRefusedUnchanged(given.world, error, () => given.world.send([transfer]));
  });
});
