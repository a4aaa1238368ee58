/**
 * Replaying a transfer on the real program: `transfer_record` creates the transfer id's Receipt at
 * `["receipt", sender, transfer_id]`, so the same id can be recorded once per sender. Riding in the
 * same transaction as the token transfer, it makes a retried submission fail as a whole: the
 * second TransferChecked never moves funds.
 */

import { USDG_DECIMALS } from "@cpay/localnet/cluster";
import { buildTransferRecordInstruction, findReceiptPda } from "@cpay/sdk";
import type { KeyPairSigner } from "@solana/kit";
import { getTransferCheckedInstruction } from "@solana-program/token-2022";
import { beforeEach, describe, expect, it } from "vitest";
import { eventNames } from "../support/cluster-send";
import { createPolicyWorld, type PolicyWorld, transferId, usdg } from "../support/policy-world";
import { expectRefusedUnchanged } from "../support/refused-unchanged";

describe("attacks: replaying a recorded transfer", () => {
  let world: PolicyWorld;
  let service: KeyPairSigner;

  beforeEach(async () => {
    world = await createPolicyWorld();
    service = world.alice.wallet;
    world.cluster.requestAirdrop(service.address, 1_000_000_000n);
  });

  /** Alice pays bob 10 USDG and records it under `id`, in one transaction. */
  async function paymentWithRecord(id: Uint8Array) {
    return [
      getTransferCheckedInstruction({
        source: world.alice.usdg,
        mint: world.usdgMint,
        destination: world.recipients.bob.usdg,
        authority: service,
        amount: usdg(10),
        decimals: USDG_DECIMALS,
      }),
      await buildTransferRecordInstruction({
        sender: service,
        payer: service,
        transferId: id,
        confidential: false,
        memo: new Uint8Array([1, 2, 3]),
        source: world.alice.usdg,
        destination: world.recipients.bob.usdg,
        mint: world.usdgMint,
      }),
    ];
  }

  it("records a transfer id once; the replay fails and moves nothing", async () => {
    // Given the payment was made and recorded under transfer id 1
    const first = await world.send(await paymentWithRecord(transferId(1)), { payer: service });
    expect(first.err, first.logs.join("\n")).toBeNull();
    expect(eventNames(first)).toEqual(["ServiceTransferRecorded"]);
    const [receipt] = await findReceiptPda({ sender: service.address, transferId: transferId(1) });
    expect(world.cluster.getAccount(receipt)?.owner).toBe(world.programId);
    expect(world.balance(world.recipients.bob.usdg)).toBe(usdg(10));
    // When the same transaction is submitted again (a new blockhash: a retry, not a duplicate)
    const { outcome, changes } = await world.attempt(
      async () => world.send(await paymentWithRecord(transferId(1)), { payer: service }),
      { extra: [receipt], payer: service },
    );
    // Then the record refuses the known id and the whole transaction, payment included, is void
    expect(outcome.error).toBe("AccountAlreadyInitialized");
    expect(outcome.err).toEqual({ InstructionError: [1, { Custom: 6007 }] });
    expect(changes).toEqual([]);
    expect(world.balance(world.recipients.bob.usdg)).toBe(usdg(10));
  });

  it("refuses a bare transfer_record replay too", async () => {
    const [, record] = await paymentWithRecord(transferId(2));
    expect((await world.send([record as NonNullable<typeof record>], { payer: service })).err).toBeNull();
    await expectRefusedUnchanged(
      world,
      "AccountAlreadyInitialized",
      () => world.send([record as NonNullable<typeof record>], { payer: service }),
      { payer: service },
    );
  });

  it("makes an agent spend recorded with its transfer id move funds once, however often it is retried", async () => {
    // Given the service submits alice/bot's 10 USDG spend with the record of transfer id 7
    const submission = async () => [
      await world.transferInstruction({ amount: usdg(10), transferId: transferId(7) }),
      await buildTransferRecordInstruction({
        sender: world.feePayer,
        payer: world.feePayer,
        transferId: transferId(7),
        confidential: false,
        memo: new Uint8Array(0),
        source: world.agent.usdg,
        destination: world.recipients.bob.usdg,
        mint: world.usdgMint,
      }),
    ];
    const first = await world.send(await submission());
    expect(first.err, first.logs.join("\n")).toBeNull();
    expect(eventNames(first)).toEqual(["TransferExecuted", "ServiceTransferRecorded"]);
    // When it is retried (new blockhash)
    const { outcome, changes } = await world.attempt(async () => world.send(await submission()));
    // Then the retry fails as a whole: the agent spent 10 USDG once, and today's total says so
    expect(outcome.err).toEqual({ InstructionError: [1, { Custom: 6007 }] });
    expect(changes).toEqual([]);
    expect(world.balance(world.recipients.bob.usdg)).toBe(usdg(10));
    expect(world.readPolicy().spentToday).toBe(usdg(10));
  });
});
