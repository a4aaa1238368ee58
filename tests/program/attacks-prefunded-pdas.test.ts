/**
 * Griefing by pre-funding, on the real program: every PDA the program creates has a public
 * address, and anyone can send lamports there first. A plain System CreateAccount would then fail
 * forever; the program tops up, allocates and assigns instead. Each creation must still succeed,
 * and a closed hold returns every lamport (the griefer's included) to the hold's payer.
 */
import { buildAgentCreateInstruction, buildTransferRecordInstruction, findReceiptPda } from "@cpay/sdk";
import { type Address, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createPolicyWorld,
  DEFAULT_POLICY,
  type PolicyWorld,
  transferId,
  usdg,
} from "../support/policy-world";

const GRIEF = 1_234_567n;

describe("attacks: pre-funded PDAs", () => {
  let world: PolicyWorld;

  beforeEach(async () => {
    world = await createPolicyWorld();
  });

  async function prefund(...targets: Address[]) {
    const outcome = await world.send(
      targets.map((destination) =>
        getTransferSolInstruction({ source: world.stranger, destination, amount: lamports(GRIEF) }),
      ),
      { payer: world.stranger },
    );
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    for (const target of targets) expect(world.lamports(target)).toBe(GRIEF);
  }

  it("still holds a spend at a pre-funded pending address, and gives the griefer's lamports to the payer on close", async () => {
    const pending = await world.pendingAddress(0n);
    await prefund(pending);
    const held = await world.transfer({ amount: usdg(60) });
    expect(held.err, held.logs.join("\n")).toBeNull();
    expect(world.readPending(pending)?.amount).toBe(usdg(60));
    // The payer only topped the griefer's lamports up to the rent-exempt minimum
    const rent = world.cluster.minimumBalanceForRentExemption(416);
    expect(GRIEF).toBeLessThan(rent);
    expect(world.lamports(pending)).toBe(rent);
    // And closing returns all of it, the griefer's part included, to the hold's payer
    const payerBefore = world.lamports(world.feePayer.address);
    const rejected = await world.reject(pending);
    expect(rejected.err).toBeNull();
    expect(world.lamports(pending)).toBe(0n);
    expect(world.lamports(world.feePayer.address)).toBe(payerBefore + rent - rejected.fee);
  });

  it("still records a transfer at a pre-funded receipt address", async () => {
    const [receipt] = await findReceiptPda({ sender: world.feePayer.address, transferId: transferId(3) });
    await prefund(receipt);
    const record = await buildTransferRecordInstruction({
      sender: world.feePayer,
      payer: world.feePayer,
      transferId: transferId(3),
      confidential: false,
      memo: new Uint8Array(0),
      source: world.alice.usdg,
      destination: world.recipients.bob.usdg,
      mint: world.usdgMint,
    });
    const outcome = await world.send([record]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(world.cluster.getAccount(receipt)?.owner).toBe(world.programId);
  });

  it("still creates an agent whose agent, policy and handle addresses were all pre-funded", async () => {
    const created = await buildAgentCreateInstruction({
      owner: world.alice.wallet,
      ownerHandle: "alice",
      name: "second",
      agentSigner: world.stranger.address,
      policy: DEFAULT_POLICY,
      payer: world.feePayer,
      assets: world.assets,
    });
    const agentHandle = created.instruction.accounts[4].address;
    await prefund(created.agent, created.policy, agentHandle);
    const outcome = await world.send([created.instruction]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    for (const account of [created.agent, created.policy, agentHandle]) {
      expect(world.cluster.getAccount(account)?.owner).toBe(world.programId);
    }
  });
});
