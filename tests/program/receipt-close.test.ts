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
import { describe, expect, it } from "vitest";
import { accountBytes, plantAccount } from "../support/plant-account";
import { createPolicyWorld, transferId, withAccount } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

/** Rent of a 112-byte account at the default rent: (112 + 128) x 6,960 lamports. */
const RECEIPT_RENT = 1_670_400n;

describe("receipt_close", () => {
  const given = perTestCase(async () => {
    const world = await createPolicyWorld();
    return { world, reserve: world.feePayer, sender: world.alice.wallet };
  });

  /** Records transfer id `n` for alice, the reserve paying the receipt; returns the receipt. */
  async function record(n: number): Promise<Address> {
    const outcome = await given.world.send([
      await buildTransferRecordInstruction({
        sender: given.sender,
        payer: given.reserve,
        transferId: transferId(n),
        confidential: false,
        memo: new Uint8Array(0),
        source: given.world.alice.usdg,
        destination: given.world.recipients.bob.usdg,
        mint: given.world.usdgMint,
        programAddress: given.world.programId,
      }),
    ]);
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    const [receipt] = await findReceiptPda(
      { sender: given.sender.address, transferId: transferId(n) },
      { programAddress: given.world.programId },
    );
    return receipt;
  }

  function readReceipt(receipt: Address): Receipt {
    return getReceiptDecoder().decode(accountBytes(given.world.cluster, receipt));
  }

  function closeInstruction(receipt: Address, rentReceiver: KeyPairSigner = given.reserve): Instruction {
    return buildReceiptCloseInstruction({ receipt, rentReceiver, programAddress: given.world.programId });
  }

  /** Produces slots until the next transaction lands `age` slots after `receipt` was recorded. */
  function ageTo(receipt: Address, age: bigint): void {
    // Each send produces one slot before it lands.
    const landsAt = given.world.cluster.getSlot() + 1n;
    const target = readReceipt(receipt).recordedSlot + age;
    if (target < landsAt) throw new Error(`the receipt is already older than ${age} slots`);
    given.world.cluster.clock.advance(Number(target - landsAt));
  }

  it("records who paid the rent and when (slot), at the receipt's rent", async () => {
    const receipt = await record(1);
    expect(readReceipt(receipt)).toMatchObject({
      sender: given.sender.address,
      rentPayer: given.reserve.address,
      recordedSlot: given.world.cluster.getSlot(),
    });
    expect(given.world.lamports(receipt)).toBe(RECEIPT_RENT);
  });

  it("refuses a receipt one slot short of the minimum age, then returns its rent to the payer, lamport-exact", async () => {
    // Given a receipt the reserve paid for
    const receipt = await record(1);
    // When its payer closes it one slot before the minimum age
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS - 1n);
    const early = await given.world.attempt(() => given.world.send([closeInstruction(receipt)]), {
      extra: [receipt],
    });
    // Then it is refused by name and nothing changed
    expect(early.outcome.error).toBe("ReceiptTooRecent");
    expect(early.outcome.err).toEqual({ InstructionError: [0, { Custom: 6043 }] });
    expect(early.changes).toEqual([]);

    // When it closes it at the minimum age
    const reserveBefore = given.world.lamports(given.reserve.address);
    const senderBefore = given.world.lamports(given.sender.address);
    const closed = await given.world.send([closeInstruction(receipt)]);
    // Then the receipt is gone and every lamport of its rent is the reserve's again
    expect(closed.err, closed.logs.join("\n")).toBeNull();
    expect(given.world.cluster.getAccount(receipt)).toBeNull();
    expect(given.world.lamports(given.reserve.address)).toBe(reserveBefore + RECEIPT_RENT - closed.fee);
    expect(given.world.lamports(given.sender.address)).toBe(senderBefore);
  });

  it("sends the rent nowhere but to the payer, and only with its signature", async () => {
    const receipt = await record(1);
    given.world.cluster.requestAirdrop(given.sender.address, 1_000_000_000n);
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS + 10n);
    // The sender, a stranger: not the payer
    for (const thief of [given.sender, given.world.stranger]) {
      await expectRefusedUnchanged(
        given.world,
        "WrongRentReceiver",
        () => given.world.send([closeInstruction(receipt, thief)], { payer: thief }),
        { extra: [receipt], payer: thief },
      );
    }
    // The payer's address, without its signature (a stranger pays the fee)
    const unsigned = withAccount(closeInstruction(receipt), 1, {
      address: given.reserve.address,
      role: AccountRole.WRITABLE,
    });
    await expectRefusedUnchanged(
      given.world,
      "MissingSigner",
      () => given.world.send([unsigned], { payer: given.world.stranger }),
      { extra: [receipt], payer: given.world.stranger },
    );
    expect(given.world.lamports(receipt)).toBe(RECEIPT_RENT);
  });

  it("refuses accounts that are not its receipts: another type, a legacy receipt, another owner, another address", async () => {
    const receipt = await record(1);
    const bytes = accountBytes(given.world.cluster, receipt);
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS + 10n);
    const refusal = async (account: Address, options: { thief?: KeyPairSigner } = {}) => {
      const payer = options.thief ?? given.reserve;
      const { outcome, changes } = await given.world.attempt(
        () => given.world.send([closeInstruction(account, payer)], { payer }),
        { extra: [account, receipt], payer },
      );
      expect(changes).toEqual([]);
      return outcome.error;
    };
    // Another account of this program (the agent's policy)
    expect(await refusal(given.world.agent.policy)).toBe("WrongAccountData");
    // A 72-byte receipt of the layout before rent_payer: nothing on it says who paid
    const legacy = (await generateKeyPairSigner()).address;
    plantAccount(given.world.cluster, {
      address: legacy,
      owner: given.world.programId,
      data: bytes.slice(0, 72),
    });
    expect(await refusal(legacy)).toBe("WrongAccountData");
    // The receipt's very bytes under another program (an attacker's look-alike)
    const foreign = (await generateKeyPairSigner()).address;
    plantAccount(given.world.cluster, { address: foreign, owner: TOKEN_2022_PROGRAM_ADDRESS, data: bytes });
    expect(await refusal(foreign)).toBe("WrongAccountOwner");
    // A receipt naming the stranger as its payer, at an address its seeds do not derive
    const forged = Uint8Array.from(bytes);
    forged.set(getAddressEncoder().encode(given.world.stranger.address), 72);
    const elsewhere = (await generateKeyPairSigner()).address;
    plantAccount(given.world.cluster, { address: elsewhere, owner: given.world.programId, data: forged });
    expect(await refusal(elsewhere, { thief: given.world.stranger })).toBe("WrongPda");
    // The genuine receipt is untouched by all of it
    expect(given.world.lamports(receipt)).toBe(RECEIPT_RENT);
  });

  it("closes a receipt once: a closed one cannot be revived or paid twice", async () => {
    const receipt = await record(1);
    ageTo(receipt, RECEIPT_MIN_AGE_SLOTS);
    // Closing twice in one transaction fails as a whole: the receipt is still there
    const twice = await given.world.attempt(
      () => given.world.send([closeInstruction(receipt), closeInstruction(receipt)]),
      {
        extra: [receipt],
      },
    );
    expect(twice.outcome.err).toEqual({ InstructionError: [1, { Custom: 6004 }] });
    expect(twice.changes).toEqual([]);
    // Closing, refunding the address and closing again in one transaction: the same
    const refund = getTransferSolInstruction({
      source: given.reserve,
      destination: receipt,
      amount: lamports(RECEIPT_RENT),
    });
    const revived = await given.world.attempt(
      () => given.world.send([closeInstruction(receipt), refund, closeInstruction(receipt)]),
      { extra: [receipt] },
    );
    expect(revived.outcome.error).toBe("WrongAccountOwner");
    expect(revived.changes).toEqual([]);

    // Closed for good
    expect((await given.world.send([closeInstruction(receipt)])).err).toBeNull();
    // Lamports sent to the address afterwards make a plain System account, not a receipt
    expect((await given.world.send([refund])).err).toBeNull();
    expect(given.world.cluster.getAccount(receipt)).toMatchObject({
      owner: "11111111111111111111111111111111",
      data: new Uint8Array(0),
    });
    const again = await given.world.attempt(() => given.world.send([closeInstruction(receipt)]), {
      extra: [receipt],
    });
    expect(again.outcome.error).toBe("WrongAccountOwner");
    expect(again.changes).toEqual([]);
  });
});
