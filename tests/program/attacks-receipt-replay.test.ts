/**
 * Replaying a transfer on the real program: `transfer_record` creates the transfer id's Receipt at
 * `["receipt", sender, transfer_id]`, so the same id can be recorded once per sender. Riding in the
 * same transaction as the token transfer, it makes a retried submission fail as a whole: the
 * second TransferChecked never moves funds.
 */

import { USDG_DECIMALS } from "@cpay/localnet/cluster";
import { buildTransferRecordInstruction, findReceiptPda } from "@cpay/sdk";
import { getTransferCheckedInstruction } from "@solana-program/token-2022";
import { describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { createPolicyWorld, transferId, usdg } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";
import { perTestCase } from "../support/shared-set-up";

describe("attacks: replaying a recorded transfer", () => {
  const given = perTestCase(async () => {
    const world = await createPolicyWorld();
    world.cluster.requestAirdrop(world.alice.wallet.address, 1_000_000_000n);
    return { world, service: world.alice.wallet };
  });

  /** Alice pays bob 10 USDG and records it under `id`, in one transaction. */
  async function paymentWithRecord(id: Uint8Array) {
    return [
      getTransferCheckedInstruction({
        source: given.world.alice.usdg,
        mint: given.world.usdgMint,
        destination: given.world.recipients.bob.usdg,
        authority: given.service,
        amount: usdg(10),
        decimals: USDG_DECIMALS,
      }),
      await buildTransferRecordInstruction({
        sender: given.service,
        payer: given.service,
        transferId: id,
        confidential: false,
        memo: new Uint8Array([1, 2, 3]),
        source: given.world.alice.usdg,
        destination: given.world.recipients.bob.usdg,
        mint: given.world.usdgMint,
      }),
    ];
  }

  it("records a transfer id once; the replay fails and moves nothing", async () => {
    // Given the payment was made and recorded under transfer id 1
    const first = await given.world.send(await paymentWithRecord(transferId(1)), { payer: given.service });
    expect(first.err, first.logs.join("\n")).toBeNull();
    expect(eventNames(first)).toEqual(["ServiceTransferRecorded"]);
    const [receipt] = await findReceiptPda({ sender: given.service.address, transferId: transferId(1) });
    expect(given.world.cluster.getAccount(receipt)?.owner).toBe(given.world.programId);
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(usdg(10));
    // When the same transaction is submitted again (a new blockhash: a retry, not a duplicate)
    const { outcome, changes } = await given.world.attempt(
      async () => given.world.send(await paymentWithRecord(transferId(1)), { payer: given.service }),
      { extra: [receipt], payer: given.service },
    );
    // Then the record refuses the known id and the whole transaction, payment included, is void
    expect(outcome.error).toBe("AccountAlreadyInitialized");
    expect(outcome.err).toEqual({ InstructionError: [1, { Custom: 6007 }] });
    expect(changes).toEqual([]);
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(usdg(10));
  });

  it("refuses a bare transfer_record replay too", async () => {
    const [, record] = await paymentWithRecord(transferId(2));
    expect(
      (await given.world.send([record as NonNullable<typeof record>], { payer: given.service })).err,
    ).toBeNull();
    await expectRefusedUnchanged(
      given.world,
      "AccountAlreadyInitialized",
      () => given.world.send([record as NonNullable<typeof record>], { payer: given.service }),
      { payer: given.service },
    );
  });

  it("makes an agent spend recorded with its transfer id move funds once, however often it is retried", async () => {
    // Given the service submits alice/bot's 10 USDG spend with the record of transfer id 7
    const submission = async () => [
      await given.world.transferInstruction({ amount: usdg(10), transferId: transferId(7) }),
      await buildTransferRecordInstruction({
        sender: given.world.feePayer,
        payer: given.world.feePayer,
        transferId: transferId(7),
        confidential: false,
        memo: new Uint8Array(0),
        source: given.world.agent.usdg,
        destination: given.world.recipients.bob.usdg,
        mint: given.world.usdgMint,
      }),
    ];
    const first = await given.world.send(await submission());
    expect(first.err, first.logs.join("\n")).toBeNull();
    expect(eventNames(first)).toEqual(["TransferExecuted", "ServiceTransferRecorded"]);
    // When it is retried (new blockhash)
    const { outcome, changes } = await given.world.attempt(async () => given.world.send(await submission()));
    // Then the retry fails as a whole: the agent spent 10 USDG once, and today's total says so
    expect(outcome.err).toEqual({ InstructionError: [1, { Custom: 6007 }] });
    expect(changes).toEqual([]);
    expect(given.world.balance(given.world.recipients.bob.usdg)).toBe(usdg(10));
    expect(given.world.readPolicy().spentToday).toBe(usdg(10));
  });
});
