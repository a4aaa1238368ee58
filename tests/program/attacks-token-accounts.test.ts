/**
 * Attacks on the token side of a spend, on the real program: a source the agent does not own or of
 * another mint, a destination of another mint, a mint that is not the accounts', a token program
 * that is not Token-2022, a recipient handle whose wallet does not own the destination, and an
 * approval redirected to other accounts than the held ones. Each fails AND changes nothing.
 */
import { type Address, address } from "@solana/kit";
import { beforeEach, describe, expect, it } from "vitest";
import { policyWorldWithOtherMint } from "../support/other-mint";
import { type PolicyWorld, usdg, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

const LEGACY_TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");

describe("attacks: token accounts", () => {
  // Given alice/bot (USDG only) also holds 100 of another mint; bob has an account of it
  const given = perTestCase(policyWorldWithOtherMint);

  it("refuses a source owned by someone else: alice's own USDG (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(given.world, "WrongTokenAccount", () =>
      given.world.transfer({ amount: 1n, source: given.world.alice.usdg }),
    );
  });

  it("refuses a source of another mint than the one named (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(given.world, "WrongTokenAccount", () =>
      given.world.transfer({
        amount: 1n,
        source: given.other.agentAccount,
        destination: given.world.recipients.bob.usdg,
      }),
    );
  });

  it("refuses a destination whose mint differs (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(given.world, "WrongTokenAccount", () =>
      given.world.transfer({ amount: 1n, destination: given.other.bobAccount }),
    );
  });

  it("refuses a mint that is not the accounts' mint (WrongTokenAccount)", async () => {
    await expectRefusedUnchanged(given.world, "WrongTokenAccount", () =>
      given.world.transfer({ amount: 1n, mint: given.other.mint }),
    );
  });

  it("refuses the legacy token program in place of Token-2022 (WrongProgram)", async () => {
    const transfer = withAccount(await given.world.transferInstruction({ amount: 1n }), 9, {
      address: LEGACY_TOKEN_PROGRAM,
    });
    await expectRefusedUnchanged(given.world, "WrongProgram", () => given.world.send([transfer]));
  });

  it("refuses a recipient handle that does not own the destination: claiming pay.acme to pay bob", async () => {
    expect((await given.world.updatePolicy({ allowed_recipients: ["*.acme"] })).err).toBeNull();
    await expectRefusedUnchanged(given.world, "WrongTokenAccount", () =>
      given.world.transfer({ amount: 1n, to: "bob", recipientHandle: "pay.acme" }),
    );
  });

  describe("an approval redirected away from the held accounts", () => {
    let pending: Address;

    beforeEach(async () => {
      pending = await given.world.pendingAddress(0n);
      expect((await given.world.transfer({ amount: usdg(60), to: "bob" })).err).toBeNull();
    });

    it.each([
      ["another destination (the owner's own account)", 6, (w: PolicyWorld) => w.alice.usdg],
      ["another source", 4, (w: PolicyWorld) => w.alice.usdg],
      ["another mint", 5, () => given.other.mint],
    ] as const)("refuses %s (WrongPendingTransaction)", async (_, index, replacement) => {
      const approve = withAccount(await given.world.approveInstruction(pending), index, {
        address: replacement(given.world),
      });
      await expectRefusedUnchanged(
        given.world,
        "WrongPendingTransaction",
        () => given.world.send([approve]),
        {
          extra: [pending],
        },
      );
    });
  });
});
