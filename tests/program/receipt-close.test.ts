/**
 * Closing receipts on the real program: `transfer_record` makes every transfer pay a Receipt's rent
 * (here the fee reserve pays, as the service does); `receipt_close` gives it back, only to that
 * payer, only with its signature, and only once the receipt is RECEIPT_MIN_AGE_SLOTS old — the
 * record final and every signed copy of the transfer expired. Anything else is refused and changes
 * nothing: a young receipt, another receiver, an account that is not one of our receipts, a
 * receipt already closed.
 */
import {
  buildReceiptCloseInstruction,
  buildTransferRecordInstruction,
  findReceiptPda,
  getReceiptDecoder,
  RECEIPT_MIN_AGE_SLOTS,
  type Receipt,
} from "@cpay/sdk";
import {
  AccountRole,
  type Address,
  generateKeyPairSigner,
  getAddressEncoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import { beforeEach, describe, expect, it } from "vitest";
import { accountBytes, plantAccount } from "../support/plant-account";
import { createPolicyWorld, type PolicyWorld, transferId, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";

/** Rent of a 112-byte account at the default rent: (112 + 128) x 6,960 lamports. */
const RECEIPT_RENT = 1_670_400n;

describe("receipt_close", () => {
  let world: PolicyWorld;
  let reserve: KeyPairSigner;
  let sender: KeyPairSigner;

  beforeEach(async () => {
    world = await createPolicyWorld();
    reserve = world.feePayer;
    sender = world.alice.wallet;
  });

  /** Records transfer id `n` for alice, the reserve paying the receipt; returns the receipt. */
  async function record(n: number): Promise<Address> {
    const outcome = await world.send([
      await buildTransferRecordInstruction({
        sender,
        payer: reserve,
        transferId: transferId(n),
        confidential: false,
        memo: new Uint8Array(0),
        source: world.alice.usdg,
        destination: world.recipients.bob.usdg,
        mint: world.usdgMint,
        programAddress: world.programId,
      }),
    ]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    const [receipt] = await findReceiptPda(
      { sender: sender.address, transferId: transferId(n) },
      { programAddress: world.programId },
    );
    return receipt;
  }

  function readReceipt(receipt: Address): Receipt {
    return getReceiptDecoder().decode(accountBytes(world.cluster, receipt));
  }

  function closeInstruction(receipt: Address, rentReceiver: KeyPairSigner = reserve): Instruction {
    return buildReceiptCloseInstruction({ receipt, rentReceiver, programAddress: world.programId });
  }

  /** Produces slots until the next transaction lands `age` slots after `receipt` was recorded. */
  function ageTo(receipt: Address, age: bigint): void {
    // Each send produces one slot before it lands.
    const landsAt = world.cluster.getSlot() + 1n;
    const target = readReceipt(receipt).recordedSlot + age;
    if (target < landsAt) throw new Error(`the receipt is already older than ${age} slots`);
    world.cluster.clock.advance(Number(target - landsAt));
  }

  it("records who paid the rent and when (slot), at the receipt's rent", async () => {
    const receipt = await record(1);
    expect(readReceipt(receipt)).toMatchObject({
      sender: sender.address,
      rentPayer: reserve.address,
      recordedSlot: world.cluster.getSlot(),
    });
    expect(world.lamports(receipt)).toBe(RECEIPT_RENT);
  });

  it("refuses a receipt one slot short of the minimum age, then returns its rent to the payer, lamport-exact", async () => {
    // Given a receipt the reserve paid for
    const receipt = await record(1);
    // When its payer closes it one slot before the minimum age
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS - 1n);
    const early = await world.attempt(() => world.send([closeInstruction(receipt)]), { extra: [receipt] });
    // Then it is refused by name and nothing changed
    expect(early.outcome.error).toBe("ReceiptTooRecent");
    expect(early.outcome.err).toEqual({ InstructionError: [0, { Custom: 6043 }] });
    expect(early.changes).toEqual([]);

    // When it closes it at the minimum age
    const reserveBefore = world.lamports(reserve.address);
    const senderBefore = world.lamports(sender.address);
    const closed = await world.send([closeInstruction(receipt)]);
    // Then the receipt is gone and every lamport of its rent is the reserve's again
    expect(closed.err, closed.logs.join("\n")).toBeNull();
    expect(world.cluster.getAccount(receipt)).toBeNull();
    expect(world.lamports(reserve.address)).toBe(reserveBefore + RECEIPT_RENT - closed.fee);
    expect(world.lamports(sender.address)).toBe(senderBefore);
  });

  it("sends the rent nowhere but to the payer, and only with its signature", async () => {
    const receipt = await record(1);
    world.cluster.requestAirdrop(sender.address, 1_000_000_000n);
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS + 10n);
    // The sender, a stranger: not the payer
    for (const thief of [sender, world.stranger]) {
      await expectRefusedUnchanged(
        world,
        "WrongRentReceiver",
        () => world.send([closeInstruction(receipt, thief)], { payer: thief }),
        { extra: [receipt], payer: thief },
      );
    }
    // The payer's address, without its signature (a stranger pays the fee)
    const unsigned = withAccount(closeInstruction(receipt), 1, {
      address: reserve.address,
      role: AccountRole.WRITABLE,
    });
    await expectRefusedUnchanged(
      world,
      "MissingSigner",
      () => world.send([unsigned], { payer: world.stranger }),
      { extra: [receipt], payer: world.stranger },
    );
    expect(world.lamports(receipt)).toBe(RECEIPT_RENT);
  });

  it("refuses accounts that are not its receipts: another type, a legacy receipt, another owner, another address", async () => {
    const receipt = await record(1);
    const bytes = accountBytes(world.cluster, receipt);
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS + 10n);
    const refusal = async (account: Address, options: { thief?: KeyPairSigner } = {}) => {
      const payer = options.thief ?? reserve;
      const { outcome, changes } = await world.attempt(
        () => world.send([closeInstruction(account, payer)], { payer }),
        { extra: [account, receipt], payer },
      );
      expect(changes).toEqual([]);
      return outcome.error;
    };
    // Another account of this program (the agent's policy)
    expect(await refusal(world.agent.policy)).toBe("WrongAccountData");
    // A 72-byte receipt of the layout before rent_payer: nothing on it says who paid
    const legacy = (await generateKeyPairSigner()).address;
    plantAccount(world.cluster, { address: legacy, owner: world.programId, data: bytes.slice(0, 72) });
    expect(await refusal(legacy)).toBe("WrongAccountData");
    // The receipt's very bytes under another program (an attacker's look-alike)
    const foreign = (await generateKeyPairSigner()).address;
    plantAccount(world.cluster, { address: foreign, owner: TOKEN_2022_PROGRAM_ADDRESS, data: bytes });
    expect(await refusal(foreign)).toBe("WrongAccountOwner");
    // A receipt naming the stranger as its payer, at an address its seeds do not derive
    const forged = Uint8Array.from(bytes);
    forged.set(getAddressEncoder().encode(world.stranger.address), 72);
    const elsewhere = (await generateKeyPairSigner()).address;
    plantAccount(world.cluster, { address: elsewhere, owner: world.programId, data: forged });
    expect(await refusal(elsewhere, { thief: world.stranger })).toBe("WrongPda");
    // The genuine receipt is untouched by all of it
    expect(world.lamports(receipt)).toBe(RECEIPT_RENT);
  });

  it("closes a receipt once: a closed one cannot be revived or paid twice", async () => {
    const receipt = await record(1);
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS);
    // Closing twice in one transaction fails as a whole: the receipt is still there
    const twice = await world.attempt(
      () => world.send([closeInstruction(receipt), closeInstruction(receipt)]),
      {
        extra: [receipt],
      },
    );
    expect(twice.outcome.err).toEqual({ InstructionError: [1, { Custom: 6004 }] });
    expect(twice.changes).toEqual([]);
    // Closing, refunding the address and closing again in one transaction: the same
    const refund = getTransferSolInstruction({
      source: reserve,
      destination: receipt,
      amount: lamports(RECEIPT_RENT),
    });
    const revived = await world.attempt(
      () => world.send([closeInstruction(receipt), refund, closeInstruction(receipt)]),
      { extra: [receipt] },
    );
    expect(revived.outcome.error).toBe("WrongAccountOwner");
    expect(revived.changes).toEqual([]);

    // Closed for good
    expect((await world.send([closeInstruction(receipt)])).err).toBeNull();
    // Lamports sent to the address afterwards make a plain System account, not a receipt
    expect((await world.send([refund])).err).toBeNull();
    expect(world.cluster.getAccount(receipt)).toMatchObject({
      owner: "11111111111111111111111111111111",
      data: new Uint8Array(0),
    });
    const again = await world.attempt(() => world.send([closeInstruction(receipt)]), { extra: [receipt] });
    expect(again.outcome.error).toBe("WrongAccountOwner");
    expect(again.changes).toEqual([]);
  });
});
