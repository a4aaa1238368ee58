/**
 * Transfers through a misbehaving RPC: the service and its indexer reach the localnet process only
 * through the fault proxy. Under each fault in turn — dropped sends, latency with reordered
 * answers, 429 bursts, 5xx bursts, PubSub cuts, a lagging node, transactions held until their
 * blockhash expired — a short stream of public and confidential transfers ends with every transfer
 * `confirmed` or `failed`, each with its events once; the chain recorded each confirmed transfer
 * exactly once and no failed one (receipts: one landed record per transfer id), and every balance
 * (confidential ones decrypted with the holders' keys) is what the confirmed transfers make it.
 * With the RPC fully down, what needs the chain is `503 chain_unavailable`, the rest answers, and
 * work resumes by itself once it is back.
 */
import { randomUUID } from "node:crypto";
import type { TransferRow } from "@cpay/api";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FaultSettings } from "../support/fault-proxy";
import { type FaultWorldAccount, faultSuite } from "../support/fault-world";
import { keysFromSecret } from "../support/holder-keys";
import { transfersRecordedOnChain } from "../support/recorded-transfers";
import { confidentialUsdgTotalOn, publicUsdgOn } from "../support/usdg-balances";
import { usdgDecimal } from "../support/usdg-units";

const UNITS = 1_000_000n;
const PUBLIC_FUNDS = 100n * UNITS;
const CONFIDENTIAL_FUNDS = 100n * UNITS;
const SETTLE_TIMEOUT_MS = 90_000;

const given = faultSuite({ seed: 17 }, async (world) => {
  const [publicPayer, confidentialPayer, payee] = await Promise.all([
    world.account("publicpayer", { public: PUBLIC_FUNDS }),
    world.account("confpayer", { confidential: CONFIDENTIAL_FUNDS }),
    world.account("payee"),
  ]);
  return { publicPayer, confidentialPayer, payee };
});
/** Every amount the suite asked for, by transfer id (the service keeps none). */
const amounts = new Map<string, bigint>();
let nextAmount = 10_000n;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(from: FaultWorldAccount, confidential: boolean) {
  const amount = nextAmount;
  nextAmount += 1_000n;
  const response = await fetch(`${given.world.service.url}/v1/transfers`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${from.key}`,
      "content-type": "application/json",
      "idempotency-key": randomUUID(),
    },
    body: JSON.stringify({ to: "@payee", amount: usdgDecimal(amount), confidential }),
  });
  const body = (await response.json()) as { transfer_id?: string; error?: { code: string } };
  if (body.transfer_id !== undefined) amounts.set(body.transfer_id, amount);
  return { status: response.status, body };
}

/** 3 public and 2 confidential transfers, the two payers at once; every answer. */
async function stream() {
  const [publicAnswers, confidentialAnswers] = await Promise.all([
    (async () => {
      const answers = [];
      for (let index = 0; index < 3; index++) answers.push(await post(given.publicPayer, false));
      return answers;
    })(),
    (async () => {
      const answers = [];
      for (let index = 0; index < 2; index++) answers.push(await post(given.confidentialPayer, true));
      return answers;
    })(),
  ]);
  return [...publicAnswers, ...confidentialAnswers];
}

/** Runs `stream` with `faults` on (re-armed every `rearmMs` when given), then clears them. */
async function underFaults(faults: Partial<FaultSettings>, rearm?: { everyMs: number; run: () => void }) {
  given.world.proxy.set(faults);
  const timer = rearm === undefined ? null : setInterval(rearm.run, rearm.everyMs);
  try {
    return await stream();
  } finally {
    if (timer !== null) clearInterval(timer);
    given.world.proxy.clear();
  }
}

async function rows(): Promise<TransferRow[]> {
  const { db } = given.world.service.context;
  return db.read((q) => q.select().from(db.tables.transfers));
}

async function settleAll(): Promise<TransferRow[]> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const all = await rows();
    if (all.every((row) => row.status !== "pending")) return all;
    if (Date.now() > deadline) {
      throw new Error(`still pending: ${JSON.stringify(all.filter((row) => row.status === "pending"))}`);
    }
    await sleep(200);
  }
}

/** The transfer's events, as `<type>@<sender|recipient>`, sorted. */
async function eventsOf(row: TransferRow): Promise<string[]> {
  const { db } = given.world.service.context;
  const { events } = db.tables;
  const found = await db.read((q) => q.select().from(events).where(eq(events.resourceId, row.id)));
  return found
    .map((event) => `${event.type}@${event.accountId === row.accountId ? "sender" : "recipient"}`)
    .sort();
}

const publicBalance = (owner: string) => publicUsdgOn(given.world.direct, owner);

/** Available + pending, decrypted with the holder's own keys. */
const confidentialBalance = (holder: FaultWorldAccount) =>
  confidentialUsdgTotalOn(
    given.world.direct,
    holder.account.publicKey,
    keysFromSecret(holder.confidentialSecret),
  );

/** Every invariant of the module doc, over every transfer made so far. */
async function checkSettled(): Promise<TransferRow[]> {
  const all = await settleAll();
  const recorded = new Map([
    ...(await transfersRecordedOnChain(given.world.direct, given.publicPayer.account.publicKey)),
    ...(await transfersRecordedOnChain(given.world.direct, given.confidentialPayer.account.publicKey)),
  ]);
  let sentPublic = 0n;
  let sentConfidential = 0n;
  for (const row of all) {
    expect(["confirmed", "failed"]).toContain(row.status);
    const types = await eventsOf(row);
    if (row.status === "confirmed") {
      expect(types, row.id).toEqual([
        "transfer.confirmed@recipient",
        "transfer.confirmed@sender",
        "transfer.initiated@sender",
      ]);
      expect(recorded.get(row.id), row.id).toHaveLength(1);
      const amount = amounts.get(row.id);
      if (amount === undefined) throw new Error(`${row.id} confirmed without an answer naming it`);
      if (row.confidential) sentConfidential += amount;
      else sentPublic += amount;
    } else {
      expect(types.filter((type) => type.startsWith("transfer.failed")).length, row.id).toBeLessThanOrEqual(
        1,
      );
      expect(
        types.filter((type) => type.startsWith("transfer.confirmed")),
        row.id,
      ).toEqual([]);
      expect(recorded.has(row.id), row.id).toBe(false);
    }
  }
  // Nothing recorded on chain that the service does not know.
  for (const id of recorded.keys()) expect(all.map((row) => row.id)).toContain(id);
  expect(await publicBalance(given.publicPayer.account.publicKey)).toBe(PUBLIC_FUNDS - sentPublic);
  expect(await publicBalance(given.payee.account.publicKey)).toBe(sentPublic);
  expect(await confidentialBalance(given.confidentialPayer)).toBe(CONFIDENTIAL_FUNDS - sentConfidential);
  expect(await confidentialBalance(given.payee)).toBe(sentConfidential);
  return all;
}

/** The stream's transfers all confirmed (the service rode the fault out). */
async function expectAllConfirmed(answers: Awaited<ReturnType<typeof stream>>): Promise<void> {
  const all = await checkSettled();
  for (const answer of answers) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const row = all.find((candidate) => candidate.id === answer.body.transfer_id);
    expect(row?.status, answer.body.transfer_id).toBe("confirmed");
  }
}

describe("transfers through a misbehaving RPC", () => {
  it("Given 30% of sends dropped, Then every transfer confirms once", async () => {
    const answers = await underFaults({ dropSends: 0.3 });
    expect(given.world.proxy.stats.dropped.length).toBeGreaterThan(0);
    await expectAllConfirmed(answers);
  });

  it("Given added latency with answers reordered, Then every transfer confirms once", async () => {
    await expectAllConfirmed(await underFaults({ latencyMs: 20, jitterMs: 120 }));
  });

  it.each([
    ["429", { fail429: 3 }, "http429"],
    ["5xx", { fail5xx: 3 }, "http5xx"],
  ] as const)("Given %s bursts, Then every transfer confirms once", async (_, burst, counted) => {
    const before = given.world.proxy.stats[counted];
    const answers = await underFaults(burst, { everyMs: 400, run: () => given.world.proxy.set(burst) });
    expect(given.world.proxy.stats[counted]).toBeGreaterThan(before);
    await expectAllConfirmed(answers);
  });

  it("Given PubSub cut again and again, Then every transfer confirms once", async () => {
    const answers = await underFaults({}, { everyMs: 300, run: () => given.world.proxy.cutPubSub() });
    await expectAllConfirmed(answers);
  });

  it("Given a node lagging behind with slot and blockhash answers held back, Then every transfer confirms once", async () => {
    const answers = await underFaults({
      lagMs: 400,
      methodLatencyMs: { getSlot: 150, getLatestBlockhash: 150 },
    });
    await expectAllConfirmed(answers);
  });

  it("Given transactions held until their blockhash expired, Then the transfers are signed again and confirm once", async () => {
    const before = given.world.proxy.stats.expired.length;
    const answers = await underFaults({ expireNextSends: 2 });
    expect(given.world.proxy.stats.expired.length - before).toBe(2);
    await expectAllConfirmed(answers);
  });

  it("Given the RPC fully down, Then a transfer is 503 chain_unavailable and the reads of the service answer; When it is back, Then transfers go on by themselves", async () => {
    const before = (await rows()).length;
    given.world.proxy.set({ down: true });
    try {
      const refused = await post(given.publicPayer, false);
      expect(refused.status).toBe(503);
      expect(refused.body.error?.code).toBe("chain_unavailable");
      const headers = { authorization: `Bearer ${given.publicPayer.key}` };
      const list = await fetch(`${given.world.service.url}/v1/transfers`, { headers });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { total: number }).total).toBeGreaterThan(0);
      expect((await fetch(`${given.world.service.url}/v1/accounts/me`, { headers })).status).toBe(200);
    } finally {
      given.world.proxy.clear();
    }
    expect((await rows()).length).toBe(before);
    await expectAllConfirmed(await stream());
  });
});
