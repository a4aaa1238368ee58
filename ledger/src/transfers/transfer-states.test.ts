/**
 * The transfer's transition table and its use: a move the table refuses is never written, whoever
 * asks for it, and the guards keep a row where it is when it has already moved on.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RecordsWorld, someSignature, startRecordsWorld } from "../testing/records-world";
import {
  canTransition,
  IllegalTransferTransition,
  TRANSFER_STATES,
  TRANSFER_TRANSITIONS,
  type TransferState,
} from "./transfer-states";
import { markConfirmedIn, markFailed, markSubmitted, moveTransfer } from "./transfer-transitions";

const STATES = Object.keys(TRANSFER_STATES) as TransferState[];
const noUsage = { apiKeyId: null, increment: null };

describe("the transfer transition table", () => {
  it("Given any state, Then every state is reachable from submitting and failed is final", () => {
    const reached = new Set<TransferState>(["submitting"]);
    for (const from of reached) for (const to of TRANSFER_TRANSITIONS[from]) reached.add(to);
    expect([...reached].sort()).toEqual([...STATES].sort());
    expect(STATES.filter((to) => canTransition("failed", to))).toEqual([]);
  });

  it("Given a settled transfer, Then it never goes back to waiting for the chain, except one crash recovery gave up on", () => {
    for (const from of ["confirmed", "failed"] as const) {
      expect(canTransition(from, "submitted")).toBe(false);
      expect(canTransition(from, "held")).toBe(false);
    }
    expect(canTransition("not_landed", "submitted")).toBe(true);
    expect(canTransition("submitting", "confirmed")).toBe(false);
  });
});

describe("moving a transfer row", () => {
  let w: RecordsWorld;
  beforeEach(async () => {
    w = await startRecordsWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it("Given a failed transfer, When asked to move it back to submitted, Then the move is refused and nothing is written", async () => {
    const row = await w.submitting(w.owner);
    await markFailed(w.service, row.id, { from: "submitting", failureCode: "expired", fireEvent: false });
    const before = await w.rowNow(row.id);

    const move = w.db.transaction((tx) =>
      moveTransfer(w.service, tx, row.id, { from: ["failed"], to: "submitted", set: { failureCode: null } }),
    );

    await expect(move).rejects.toBeInstanceOf(IllegalTransferTransition);
    expect(await w.rowNow(row.id)).toEqual(before);
  });

  it("Given a submitting transfer, When the indexer would confirm it before it was submitted, Then it stays submitting", async () => {
    const row = await w.submitting(w.owner);

    const after = await w.db.transaction((tx) =>
      markConfirmedIn(w.service, tx, row.id, new Date().toISOString()),
    );

    expect(after).toMatchObject({ status: "pending", phase: "submitting", confirmedAt: null });
    expect(await w.events()).toEqual([]);
  });

  it("Given a confirmed transfer, When a late observer reports it submitted, Then it stays confirmed and fires nothing more", async () => {
    const row = await w.submitting(w.owner);
    const signature = someSignature();
    await markSubmitted(w.service, row.id, { signature, signatures: [signature], usage: noUsage });
    await w.db.transaction((tx) => markConfirmedIn(w.service, tx, row.id, new Date().toISOString()));
    const fired = (await w.events()).length;

    const after = await markSubmitted(w.service, row.id, {
      signature: someSignature(),
      signatures: [],
      usage: noUsage,
    });

    expect(after).toMatchObject({ status: "confirmed", phase: "settled", txSignature: signature });
    expect(await w.events()).toHaveLength(fired);
  });

  it.each([
    ["not_landed", { status: "pending", phase: "submitted", failureCode: null }],
    ["expired", { status: "failed", phase: "settled", failureCode: "expired", txSignature: null }],
  ] as const)(
    "Given a transfer failed as %s, When it is reported landed after all, Then it is %o",
    async (code, expected) => {
      const row = await w.submitting(w.owner);
      await markFailed(w.service, row.id, { from: "submitting", failureCode: code, fireEvent: true });
      const signature = someSignature();

      const after = await markSubmitted(w.service, row.id, {
        signature,
        signatures: [signature],
        usage: noUsage,
      });

      // Only crash recovery's verdict that nothing landed may be taken back.
      expect(after).toMatchObject(expected);
    },
  );
});
