/**
 * Griefing by pre-funding, on the real program: every PDA the program creates has a public
 * address, and anyone can send lamports there first. A plain System CreateAccount would then fail
 * forever; the program tops up, allocates and assigns instead. Each creation must still succeed,
 * and a closed hold returns every lamport (the griefer's included) to the hold's payer.
 */
import { buildAgentCreateInstruction, buildTransferRecordInstruction, findReceiptPda } from "@cpay/sdk";
import { type Address, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { createPolicyWorld, DEFAULT_POLICY, transferId, usdg } from "../support/policy-world";
import { perTestCase } from "../support/shared-set-up";

const GRIEF = 1_234_567n;

describe("attacks: pre-funded PDAs", () => {
  const given = perTestCase(async () => ({ world: await createPolicyWorld() }));

  async function prefund(...targets: Address[]) {
    const outcome = await given.world.send(
      targets.map((destination) =>
        getTransferSolInstruction({ source: given.world.stranger, destination, amount: lamports(GRIEF) }),
      ),
      { payer: given.world.stranger },
    );
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    for (const target of targets) expect(given.world.lamports(target)).toBe(GRIEF);
  }

  it("still holds a spend at a pre-funded pending address, and gives the griefer's lamports to the payer on close", async () => {
    const pending = await given.world.pendingAddress(0n);
    await prefund(pending);
    const held = await given.world.transfer({ amount: usdg(60) });
    expect(held.err, held.logs.join("\n")).toBeNull();
    expect(given.world.readPending(pending)?.amount).toBe(usdg(60));
    // The payer only topped the griefer's lamports up to the rent-exempt minimum
    const rent = given.world.cluster.minimumBalanceForRentExemption(416);
    expect(GRIEF).toBeLessThan(rent);
    expect(given.world.lamports(pending)).toBe(rent);
    // And closing returns all of it, the griefer's part included, to the hold's payer
    const payerBefore = given.world.lamports(given.world.feePayer.address);
    const rejected = await given.world.reject(pending);
    expect(rejected.err).toBeNull();
    expect(given.world.lamports(pending)).toBe(0n);
    expect(given.world.lamports(given.world.feePayer.address)).toBe(payerBefore + rent - rejected.fee);
  });

  it("still records a transfer at a pre-funded receipt address", async () => {
    const [receipt] = await findReceiptPda({
      sender: given.world.feePayer.address,
      transferId: transferId(3),
    });
    await prefund(receipt);
    const record = await buildTransferRecordInstruction({
      sender: given.world.feePayer,
      payer: given.world.feePayer,
      transferId: transferId(3),
      confidential: false,
      memo: new Uint8Array(0),
      source: given.world.alice.usdg,
      destination: given.world.recipients.bob.usdg,
      mint: given.world.usdgMint,
    });
    const outcome = await given.world.send([record]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    expect(given.world.cluster.getAccount(receipt)?.owner).toBe(given.world.programId);
  });

  it("still creates an agent whose agent, policy and handle addresses were all pre-funded", async () => {
    const created = await buildAgentCreateInstruction({
      owner: given.world.alice.wallet,
      ownerHandle: "alice",
      name: "second",
      agentSigner: given.world.stranger.address,
      policy: DEFAULT_POLICY,
      payer: given.world.feePayer,
      assets: given.world.assets,
    });
    const agentHandle = created.instruction.accounts[4].address;
    await prefund(created.agent, created.policy, agentHandle);
    const outcome = await given.world.send([created.instruction]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    for (const account of [created.agent, created.policy, agentHandle]) {
      expect(given.world.cluster.getAccount(account)?.owner).toBe(given.world.programId);
    }
  });
});
