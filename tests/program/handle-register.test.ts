/**
 * handle_register on the real program: only the config's registrar registers account handles
 * (personal or business, normalised bytes only), each at its PDA `["handle", sha256(handle)]`,
 * once. Refusals change nothing.
 */
import { findHandlePda, getHandleDecoder, getHandleRegisterInstructionAsync } from "@cpay/sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { accountBytes } from "../support/plant-account";
import { createPolicyWorld, type PolicyWorld, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { registerForStranger } from "../support/stranger-handle";

describe("handle_register", () => {
  let world: PolicyWorld;

  beforeEach(async () => {
    world = await createPolicyWorld();
  });

  it("registers a normalised handle for a wallet and emits HandleRegistered", async () => {
    const [handle] = await findHandlePda({ handle: "carol" });
    const outcome = await world.send([await registerForStranger(world, "@Carol", { kind: "business" })]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    const stored = getHandleDecoder().decode(accountBytes(world.cluster, handle));
    expect(stored).toMatchObject({ wallet: world.stranger.address, kind: 1, handleLen: 5 });
    expect(Buffer.from(stored.handle.slice(0, 5)).toString()).toBe("carol");
    expect(outcome.events).toEqual([
      {
        name: "HandleRegistered",
        instructionIndex: 0,
        data: { handle: "carol", wallet: world.stranger.address, kind: 1 },
      },
    ]);
  });

  it("refuses anyone but the registrar (NotRegistrar)", async () => {
    const [handle] = await findHandlePda({ handle: "carol" });
    await expectRefusedUnchanged(
      world,
      "NotRegistrar",
      async () => world.send([await registerForStranger(world, "carol", { registrar: world.stranger })]),
      { extra: [handle] },
    );
  });

  it("refuses a handle that is taken (AccountAlreadyInitialized)", async () => {
    await expectRefusedUnchanged(world, "AccountAlreadyInitialized", async () =>
      world.send([await registerForStranger(world, "bob")]),
    );
  });

  it.each([
    ["not normalised (upper case)", "Carol", 0, "InvalidHandle"],
    ["an agent handle", "carol/bot", 0, "InvalidHandle"],
    ["kind agent", "carol", 2, "HandleKindNotAllowed"],
    ["an unknown kind", "carol", 3, "HandleKindNotAllowed"],
  ] as const)("refuses %s", async (_, text, kind, error) => {
    const [handle] = await findHandlePda({ handle: text.toLowerCase() });
    const raw = await getHandleRegisterInstructionAsync({
      registrar: world.registrar,
      payer: world.feePayer,
      handle,
      handleArg: text,
      kind,
      wallet: world.stranger.address,
    });
    await expectRefusedUnchanged(world, error, () => world.send([raw]), { extra: [handle] });
  });

  it("refuses a handle account that is not the handle's PDA (WrongPda)", async () => {
    const [dave] = await findHandlePda({ handle: "dave" });
    const register = withAccount(await registerForStranger(world, "carol"), 3, { address: dave });
    await expectRefusedUnchanged(world, "WrongPda", () => world.send([register]), { extra: [dave] });
  });
});
