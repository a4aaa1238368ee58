/**
 * Attacks on the token side of a spend, on the real program: a source the agent does not own or of
 * another mint, a destination of another mint, a mint that is not the accounts', a token program
 * that is not Token-2022, a recipient handle whose wallet does not own the destination, and an
 * approval redirected to other accounts than the held ones. Each fails AND changes nothing.
 */
import { type Address, address } from "@solana/kit";
import { beforeEach, describe, expect, it } from "vitest";
import { fundOtherMint, type OtherMint } from "../support/other-mint";
import { createPolicyWorld, type PolicyWorld, usdg, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";

const LEGACY_TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");

describe("attacks: token accounts", () => {
  let world: PolicyWorld;
  let other: OtherMint;

  beforeEach(async () => {
    // Given alice/bot (USDG only) also holds 100 of another mint; bob has an account of it
    world = await createPolicyWorld();
    other = await fundOtherMint(world);
  });

  it("refuses a source owned by someone else: alice's own USDG (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(world, "WrongTokenAccount", () =>
      world.transfer({ amount: 1n, source: world.alice.usdg }),
    );
  });

  it("refuses a source of another mint than the one named (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(world, "WrongTokenAccount", () =>
      world.transfer({ amount: 1n, source: other.agentAccount, destination: world.recipients.bob.usdg }),
    );
  });

  it("refuses a destination whose mint differs (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(world, "WrongTokenAccount", () =>
      world.transfer({ amount: 1n, destination: other.bobAccount }),
    );
  });

  it("refuses a mint that is not the accounts' mint (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(world, "WrongTokenAccount", () =>
      world.transfer({ amount: 1n, mint: other.mint }),
    );
  });

  it("refuses the legacy token program in place of Token-2022 (WrongProgram)", async () => {
    const transfer = withAccount(await world.transferInstruction({ amount: 1n }), 9, {
      address: LEGACY_TOKEN_PROGRAM,
    });
    await expectRefusedUnchanged(world, "WrongProgram", () => world.send([transfer]));
  });

  it("refuses a recipient handle that does not own the destination: claiming pay.acme to pay bob", async () => {
    expect((await world.updatePolicy({ allowed_recipients: ["*.acme"] })).err).toBeNull();
    await expectRefusedUnchanged(world, "WrongTokenAccount", () =>
      world.transfer({ amount: 1n, to: "bob", recipientHandle: "pay.acme" }),
    );
  });

  describe("an approval redirected away from the held accounts", () => {
    let pending: Address;

    beforeEach(async () => {
      pending = await world.pendingAddress(0n);
      expect((await world.transfer({ amount: usdg(60), to: "bob" })).err).toBeNull();
    });

    it.each([
      ["another destination (the owner's own account)", 6, (w: PolicyWorld) => w.alice.usdg],
      ["another source", 4, (w: PolicyWorld) => w.alice.usdg],
      ["another mint", 5, () => other.mint],
    ] as const)("refuses %s (WrongPendingTransaction)", async (_, index, replacement) => {
      const approve = withAccount(await world.approveInstruction(pending), index, {
        address: replacement(world),
      });
      await expectRefusedUnchanged(world, "WrongPendingTransaction", () => world.send([approve]), {
        extra: [pending],
      });
    });
  });
});
