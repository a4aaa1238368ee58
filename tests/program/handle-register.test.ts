/**
 * handle_register on the real program: only the config's registrar registers account handles
 * (personal or business, normalised bytes only), each at its PDA `["handle", sha256(handle)]`,
 * once. Refusals change nothing.
 */
import { findHandlePda, getHandleDecoder, getHandleRegisterInstructionAsync } from "@cpay/sdk";
import { describe, expect, it } from "vitest";
import { accountBytes } from "../support/plant-account";
import { createPolicyWorld, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";
import { registerForStranger } from "../support/stranger-handle";

describe("handle_register", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));

  it("registers a normalised handle for a wallet and emits HandleRegistered", async () => {
    const [handle] = await findHandlePda({ handle: "carol" });
    const outcome = await given.world.send([
      await registerForStranger(given.world, "@Carol", { kind: "business" }),
    ]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    const stored = getHandleDecoder().decode(accountBytes(given.world.cluster, handle));
    expect(stored).toMatchObject({ wallet: given.world.stranger.address, kind: 1, handleLen: 5 });
    expect(Buffer.from(stored.handle.slice(0, 5)).toString()).toBe("carol");
    expect(outcome.events).toEqual([
      {
        name: "HandleRegistered",
        instructionIndex: 0,
        data: { handle: "carol", wallet: given.world.stranger.address, kind: 1 },
      },
    ]);
  });

  it("refuses anyone but the registrar (NotRegistrar)", async () => {
    const [handle] = await findHandlePda({ handle: "carol" });
    await expectRefusedUnchanged(
      given.world,
      "NotRegistrar",
      async () =>
        given.world.send([
          await registerForStranger(given.world, "carol", { registrar: given.world.stranger }),
        ]),
      { extra: [handle] },
    );
  });

  it("refuses a handle that is taken (AccountAlreadyInitialized)", async () => {
    await expectRefusedUnchanged(given.world, "AccountAlreadyInitialized", async () =>
      given.world.send([await registerForStranger(given.world, "bob")]),
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
      registrar: given.world.registrar,
      payer: given.world.feePayer,
      handle,
      handleArg: text,
      kind,
      wallet: given.world.stranger.address,
    });
    await expectRefusedUnchanged(given.world, error, () => given.world.send([raw]), { extra: [handle] });
  });

  it("refuses a handle account that is not the handle's PDA (WrongPda)", async () => {
    const [dave] = await findHandlePda({ handle: "dave" });
    const register = withAccount(await registerForStranger(given.world, "carol"), 3, { address: dave });
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([register]), {
      extra: [dave],
    });
  });
});
