/**
 * Attacks with wrong program-derived addresses on the real program: a hold at an address that is
 * not `["pending", agent, next_hold_nonce]` with the canonical bump, another agent's policy, agent
 * accounts created at the wrong address, a receipt at another id's address. Each attempt fails
 * with WrongPda AND changes nothing (no account is created anywhere).
 */
import { buildAgentCreateInstruction, buildTransferRecordInstruction, findAgentPda } from "@cpay/sdk";
import { type Address, getAddressEncoder, getU64Encoder, type KeyPairSigner } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { nonCanonicalPda } from "../support/pda";
import {
  AccountRole,
  createPolicyWorld,
  DEFAULT_POLICY,
  transferId,
  usdg,
  withAccount,
} from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";
import { testSigner } from "../support/test-keys";

const HELD = usdg(60);

describe("attacks: wrong PDAs", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));

  /** A 60 USDG transfer (held: above HITL) whose `pending` account is `pending`, signing if given. */
  async function heldTransferWithPending(pending: Address, signer?: KeyPairSigner) {
    const transfer = await given.world.transferInstruction({ amount: HELD });
    return withAccount(transfer, 7, {
      address: pending,
      role: signer === undefined ? AccountRole.WRITABLE : AccountRole.WRITABLE_SIGNER,
      signer,
    });
  }

  it("refuses a hold at a fresh keypair's address, even one that signs", async () => {
    const keypair = await testSigner("not a pda");
    const transfer = await heldTransferWithPending(keypair.address, keypair);
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([transfer]), {
      extra: [keypair.address],
    });
  });

  it.each([
    ["the next nonce + 1", 1n],
    ["nonce 2^64 - 1", 2n ** 64n - 1n],
  ])("refuses a hold at the PDA of %s", async (_, nonce) => {
    const wrong = await given.world.pendingAddress(nonce);
    const transfer = await heldTransferWithPending(wrong);
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([transfer]), {
      extra: [wrong],
    });
  });

  it("refuses a hold at an already used nonce's PDA", async () => {
    const first = await given.world.pendingAddress(0n);
    expect((await given.world.transfer({ amount: HELD })).err).toBeNull();
    // The agent's next nonce is now 1; nonce 0 is taken (and open)
    const transfer = await heldTransferWithPending(first);
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([transfer]), {
      extra: [first],
    });
  });

  it("refuses a hold at a valid but non-canonical bump of the right seeds", async () => {
    const seeds = [
      new TextEncoder().encode("pending"),
      new Uint8Array(getAddressEncoder().encode(given.world.agent.address)),
      new Uint8Array(getU64Encoder().encode(0n)),
    ];
    const { address } = await nonCanonicalPda(given.world.programId, seeds);
    const transfer = await heldTransferWithPending(address);
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([transfer]), {
      extra: [address],
    });
  });

  it("refuses another agent's policy with this agent (WrongPda)", async () => {
    const bobBot = await given.world.createAgent({
      owner: "bob",
      name: "bot",
      policy: {
        ...DEFAULT_POLICY,
        per_transaction_limit_usdg: "1000",
        daily_limit_usdg: "1000",
        hitl_threshold_usdg: "1000",
      },
    });
    // alice/bot spends 900 USDG under bob/bot's generous policy
    const transfer = withAccount(await given.world.transferInstruction({ amount: usdg(900) }), 2, {
      address: bobBot.policy,
    });
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([transfer]));
  });

  it("refuses agent_create at another agent's address (WrongPda)", async () => {
    const created = await buildAgentCreateInstruction({
      owner: given.world.alice.wallet,
      ownerHandle: "alice",
      name: "second",
      agentSigner: given.world.agent.signer.address,
      policy: DEFAULT_POLICY,
      payer: given.world.feePayer,
      assets: given.world.assets,
    });
    const [elsewhere] = await findAgentPda({ agentHandle: "alice/third" });
    const wrong = withAccount(created.instruction, 2, { address: elsewhere });
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([wrong]), {
      extra: [elsewhere, created.agent, created.policy],
    });
  });

  it("refuses a receipt at the address of another transfer id (WrongPda)", async () => {
    const sender = given.world.feePayer;
    const record = await buildTransferRecordInstruction({
      sender,
      payer: sender,
      transferId: transferId(1),
      confidential: false,
      memo: new Uint8Array(0),
      source: given.world.alice.usdg,
      destination: given.world.recipients.bob.usdg,
      mint: given.world.usdgMint,
    });
    const other = await buildTransferRecordInstruction({
      sender,
      payer: sender,
      transferId: transferId(2),
      confidential: false,
      memo: new Uint8Array(0),
      source: given.world.alice.usdg,
      destination: given.world.recipients.bob.usdg,
      mint: given.world.usdgMint,
    });
    const otherReceipt = other.accounts[1].address;
    const wrong = withAccount(record, 1, { address: otherReceipt });
    await expectRefusedUnchanged(given.world, "WrongPda", () => given.world.send([wrong]), {
      extra: [otherReceipt],
    });
  });
});
