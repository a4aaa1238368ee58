/**
 * agent_transfer, recipient patterns on the real program. A recipient name is proved by passing
 * its Handle account (whose wallet must own the destination); `*.acme` matches handles ending in
 * `.acme` but not `acme` or `xacme`; a name matches only itself; an address pattern matches the
 * destination token account or its owner wallet; an empty list allows anyone.
 */
import { describe, expect, it } from "vitest";
import {
  createPolicyWorld,
  DEFAULT_POLICY,
  type PolicyWorld,
  type RecipientName,
} from "../support/policy-world";

async function worldAllowing(patterns: (world: PolicyWorld) => string[]): Promise<PolicyWorld> {
  const world = await createPolicyWorld();
  const updated = await world.updatePolicy({ allowed_recipients: patterns(world) });
  expect(updated.err, updated.logs.join("\n")).toBeNull();
  return world;
}

async function expectAllowed(world: PolicyWorld, to: RecipientName, recipientHandle?: string | null) {
  const outcome = await world.transfer({ amount: 1n, to, recipientHandle });
  expect(outcome.err, outcome.logs.join("\n")).toBeNull();
  expect(world.balance(world.recipients[to].usdg)).toBe(1n);
}

async function expectRefused(world: PolicyWorld, to: RecipientName, recipientHandle?: string | null) {
  const before = world.snapshot();
  const outcome = await world.transfer({ amount: 1n, to, recipientHandle });
  expect(outcome.error).toBe("RecipientNotAllowed");
  expect(outcome.code).toBe(6026);
  expect(world.changesSince(before, outcome)).toEqual([]);
}

describe("agent_transfer: suffix pattern *.acme", () => {
  it.each(["pay.acme", "x.pay.acme"] as const)("allows %s, proved by its handle", async (to) => {
    const world = await worldAllowing(() => ["*.acme"]);
    await expectAllowed(world, to);
  });

  it.each(["acme", "xacme", "bob"] as const)("refuses %s", async (to) => {
    const world = await worldAllowing(() => ["*.acme"]);
    await expectRefused(world, to);
  });

  it("refuses pay.acme's account when its handle is not passed", async () => {
    const world = await worldAllowing(() => ["*.acme"]);
    await expectRefused(world, "pay.acme", null);
  });
});

describe("agent_transfer: name pattern", () => {
  it("allows bob by name and refuses acme", async () => {
    const world = await worldAllowing(() => ["bob"]);
    await expectAllowed(world, "bob");
    await expectRefused(world, "acme");
  });

  it("does not treat a name as a suffix: pattern acme refuses pay.acme", async () => {
    const world = await worldAllowing(() => ["acme"]);
    await expectAllowed(world, "acme");
    await expectRefused(world, "pay.acme");
  });
});

describe("agent_transfer: address pattern", () => {
  it("allows the destination token account named by address, without any handle", async () => {
    const world = await worldAllowing((w) => [w.recipients.bob.usdg]);
    await expectAllowed(world, "bob", null);
    await expectRefused(world, "acme", null);
  });

  it("allows any token account of the owner wallet named by address", async () => {
    const world = await worldAllowing((w) => [w.recipients.xacme.wallet.address]);
    await expectAllowed(world, "xacme", null);
    await expectRefused(world, "bob", null);
  });
});

describe("agent_transfer: no patterns", () => {
  it.each(["bob", "acme", "xacme", "x.pay.acme"] as const)(
    "allows %s with or without a handle",
    async (to) => {
      const world = await createPolicyWorld();
      expect(DEFAULT_POLICY.allowed_recipients).toEqual([]);
      await expectAllowed(world, to, null);
      expect((await world.transfer({ amount: 1n, to })).err).toBeNull();
    },
  );
});
