/**
 * The fee reserve's daily budget per account, measured on the cluster: the reserve's lamports
 * before and after an attack that makes it pay rent into accounts the attacker can reclaim, or burn
 * it. Each attack runs until the service refuses it; the reserve never loses more than the owner's
 * budget, and the refusal (`429 reserve_budget_exhausted`) signs nothing.
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS, FINALITY_DEPTH } from "@cpay/localnet/cluster";
import { RECEIPT_MIN_AGE_SLOTS } from "@cpay/sdk";
import { ApiRequestError } from "@cpay/sdk/api";
import {
  AccountRole,
  type Address,
  createNoopSigner,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { type ApiWorld, usdg } from "../support/api-world";
import { landedTransaction, signerState } from "../support/chain-reads";
import { TEST_POLICY } from "./support/agents";
import { eventually } from "./support/held-transfer";
import { agentSigned, createSelfCustodyAgent } from "./support/self-custody";

/** The owner's daily budget in these worlds: 0.05 SOL (the default is far higher). */
const BUDGET = 50_000_000n;
/** Less than 20 one-kilobyte loader buffers (about 0.0078 SOL each). */
const SWARM_BUDGET = 20_000_000n;
const LOADER_BUFFER_SPACE = 10_000;

const reserveLamports = async (world: ApiWorld) =>
  (await world.chain.getAccount(world.service.context.feePayer.address))?.lamports ?? 0n;

/** What a request ended with: its status and code, or 201. */
async function outcomeOf(request: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await request;
    return { status: 201, code: "ok" };
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return { status: error.status, code: error.code };
  }
}

/** InitializeBuffer (loader tag 0): `[buffer, authority]`. */
function initializeBuffer(buffer: Address, authority: Address): Instruction {
  return {
    programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
    accounts: [
      { address: buffer, role: AccountRole.WRITABLE },
      { address: authority, role: AccountRole.READONLY },
    ],
    data: new Uint8Array(4),
  };
}

/** `count` loader buffers of `space` bytes, funded by the fee payer, optionally initialized for the agent. */
async function loaderBuffersFor(
  world: ApiWorld,
  count: number,
  space: number,
  initializedFor?: KeyPairSigner,
): Promise<string> {
  const feePayer = createNoopSigner(world.service.context.feePayer.address);
  const lamports = await world.chain.minimumBalanceForRentExemption(space);
  const instructions: Instruction[] = [];
  for (let i = 0; i < count; i++) {
    const buffer = await generateKeyPairSigner();
    instructions.push(
      getCreateAccountInstruction({
        payer: feePayer,
        newAccount: buffer,
        lamports,
        space,
        programAddress: BPF_LOADER_UPGRADEABLE_ADDRESS,
      }),
    );
    if (initializedFor !== undefined)
      instructions.push(initializeBuffer(buffer.address, initializedFor.address));
  }
  return agentSigned(world, instructions);
}

describe("the relay", () => {
  const given = apiSuite({
    // The owner's budget is what stops these requests, not the agent's relay cap.
    world: {
      env: { RESERVE_DAILY_BUDGET_LAMPORTS: String(BUDGET), RELAY_DAILY_FEE_CAP_LAMPORTS: "1000000000" },
    },
    accounts: { owner: "mallory" },
    setUp: async ({ world, owner }) => {
      const agent = await createSelfCustodyAgent(world, owner, "drain");
      await world.faucet.mintUsdgToOwner(agent.pda, usdg(100));
      return { agent };
    },
  });

  const relay = (transactions: string[]) =>
    given.world.clientFor(given.agent.key.value).call("relayTransactions", { body: { transactions } });

  const loaderBuffers = (count: number, space: number, initializedFor?: KeyPairSigner) =>
    loaderBuffersFor(given.world, count, space, initializedFor);

  it("Given 8 transactions of 6 fresh loader buffers each (10,000 bytes, nothing else), When relayed, Then they are refused naming the rule and the reserve loses nothing", async () => {
    const before = await reserveLamports(given.world);
    const transactions = await Promise.all(
      Array.from({ length: 8 }, () => loaderBuffers(6, LOADER_BUFFER_SPACE)),
    );
    const outcome = await outcomeOf(relay(transactions));
    const lost = before - (await reserveLamports(given.world));
    expect(lost).toBeLessThanOrEqual(BUDGET);
    expect(outcome).toEqual({ status: 422, code: "relay_transaction_refused" });
    expect(lost).toBe(0n);
  });

  it("Given loader buffers initialized with the agent as authority (so the agent could close them for itself), When relayed again and again, Then they stop at the owner's budget with nothing signed by the refusal", async () => {
    const before = await reserveLamports(given.world);
    let refused: { status: number; code: string } | null = null;
    let relayed = 0;
    for (let request = 0; request < 10 && refused === null; request++) {
      // Two buffers of 1,000 bytes: about 0.0157 SOL a request, so a few fit in the budget.
      const transactions = [await loaderBuffers(2, 1_000, given.agent.signer)];
      const atRefusal = await reserveLamports(given.world);
      const outcome = await outcomeOf(relay(transactions));
      if (outcome.status !== 201) {
        refused = outcome;
        expect(await reserveLamports(given.world)).toBe(atRefusal);
      } else relayed++;
    }
    const lost = before - (await reserveLamports(given.world));
    expect(lost).toBeLessThanOrEqual(BUDGET);
    expect(relayed).toBeGreaterThan(0);
    expect(refused).toEqual({ status: 429, code: "reserve_budget_exhausted" });
  });
});

describe("concurrent relay requests", () => {
  const given = apiSuite({
    // The agent's relay cap binds here (the owner's budget also paid for the agent's creation).
    world: { env: { RELAY_DAILY_FEE_CAP_LAMPORTS: String(SWARM_BUDGET) } },
    accounts: { owner: "oscar" },
    setUp: async ({ world, owner }) => ({ agent: await createSelfCustodyAgent(world, owner, "swarm") }),
  });

  it("Given 20 requests at once, each funding a buffer the agent could close for itself, When relayed together, Then the reserve loses no more than the budget in total", async () => {
    // (A recipient's token account is no longer such a deposit: the relay refuses to open an
    // outside owner's, external-account-opening.ts.)
    const transactions = await Promise.all(
      Array.from({ length: 20 }, () => loaderBuffersFor(given.world, 1, 1_000, given.agent.signer)),
    );
    const before = await reserveLamports(given.world);
    const client = given.world.clientFor(given.agent.key.value);
    const outcomes = await Promise.all(
      transactions.map((transaction) =>
        outcomeOf(client.call("relayTransactions", { body: { transactions: [transaction] } })),
      ),
    );
    const lost = before - (await reserveLamports(given.world));
    expect(lost).toBeLessThanOrEqual(SWARM_BUDGET);
    expect(outcomes.filter((outcome) => outcome.status === 201).length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome.status !== 201)).not.toEqual([]);
  });
});

describe("custodial public transfers", () => {
  const given = apiSuite({
    world: { env: { RESERVE_DAILY_BUDGET_LAMPORTS: String(BUDGET) } },
    accounts: { owner: "trudy" },
    // Enough for the account-opening fee (1 USDG) of every send the budget allows (about 13).
    funds: { owner: { public: usdg(30) } },
  });
  it("Given 0.000001 USDG sent again and again to fresh addresses, When the owner's budget is spent, Then the next is refused (429 reserve_budget_exhausted) with nothing signed and the reserve lost at most the budget", async () => {
    const before = await reserveLamports(given.world);
    let refused: { status: number; code: string } | null = null;
    for (let sent = 0; sent < 30 && refused === null; sent++) {
      const atRefusal = await reserveLamports(given.world);
      const signedBefore = await signerState(given.world.chain, given.world.service.context.feePayer.address);
      const outcome = await outcomeOf(
        given.owner.client.call("createTransfer", {
          body: { to: (await generateKeyPairSigner()).address, amount: "0.000001", confidential: false },
        }),
      );
      if (outcome.status !== 201) {
        refused = outcome;
        expect(await reserveLamports(given.world)).toBe(atRefusal);
        expect(await signerState(given.world.chain, given.world.service.context.feePayer.address)).toEqual(
          signedBefore,
        );
      }
    }
    expect(refused).toEqual({ status: 429, code: "reserve_budget_exhausted" });
    // Every reservation settled (in the background), the receipts' rent is all that is advanced.
    await given.world.reserveSettled();
    const { db } = given.world.service.context;
    const { reserveUsage, reserveAdvances, receiptClosures } = db.tables;
    const lossRow = async () =>
      (await db.read((q) => q.select().from(reserveUsage))).find(
        (row) => row.accountId === given.owner.account.id,
      );
    const advanced = async () =>
      (await db.read((q) => q.select().from(reserveAdvances))).find(
        (row) => row.accountId === given.owner.account.id,
      )?.lamports ?? 0;
    // When the receipts are old enough and the receipt job has given their rent back
    await given.world.testClock.advanceSlots(Number(RECEIPT_MIN_AGE_SLOTS + FINALITY_DEPTH) + 2);
    await eventually(advanced, (lamports) => lamports === 0, 30_000);
    // Then what the reserve lost (the closing fees are the service's own) is at most the budget, and
    // exactly what the reserve's charges count: the token accounts the recipients may keep, and the fees
    const closings = new Set(
      (await db.read((q) => q.select().from(receiptClosures))).map((row) => row.signature as string),
    );
    let closingFees = 0n;
    for (const signature of closings)
      closingFees += (await landedTransaction(given.world.chain, signature)).fee;
    const lost = before - (await reserveLamports(given.world)) - closingFees;
    expect(lost).toBeLessThanOrEqual(BUDGET);
    const row = await lossRow();
    expect({ lamports: BigInt(row?.lamports ?? -1), reserved: row?.reservedLamports }).toEqual({
      lamports: lost,
      reserved: 0,
    });
  });
});

describe("agent creation", () => {
  const given = apiSuite({
    // A cap far above what the budget pays for: the budget, not the cap, is what stops the drain.
    world: { env: { RESERVE_DAILY_BUDGET_LAMPORTS: String(BUDGET), AGENTS_PER_OWNER_MAX: "1000" } },
    accounts: { owner: "mass" },
  });

  it("Given an owner creating agents again and again, When its budget is spent, Then the next is refused (429 reserve_budget_exhausted) with nothing written or signed, and the reserve lost at most the budget", async () => {
    const before = await reserveLamports(given.world);
    const { db } = given.world.service.context;
    const agentRows = async () =>
      (await db.read((q) => q.select().from(db.tables.accounts))).filter(
        (row) => row.ownerAccountId === given.owner.account.id,
      ).length;
    let refused: { status: number; code: string } | null = null;
    let created = 0;
    for (let index = 0; index < 30 && refused === null; index++) {
      const atRefusal = await reserveLamports(given.world);
      const rowsBefore = await agentRows();
      const outcome = await outcomeOf(
        given.owner.client.call("createAgent", { body: { name: `bot-${index}`, spend_policy: TEST_POLICY } }),
      );
      if (outcome.status === 201) {
        created++;
        continue;
      }
      refused = outcome;
      expect(await reserveLamports(given.world)).toBe(atRefusal);
      expect(await agentRows()).toBe(rowsBefore);
    }
    const lost = before - (await reserveLamports(given.world));
    expect(created).toBeGreaterThan(0);
    expect(lost).toBeLessThanOrEqual(BUDGET);
    expect(refused).toEqual({ status: 429, code: "reserve_budget_exhausted" });
    await given.world.reserveSettled();
    const rows = await db.read((q) => q.select().from(db.tables.reserveUsage));
    const row = rows.find((entry) => entry.accountId === given.owner.account.id);
    expect({ lamports: BigInt(row?.lamports ?? -1), reserved: row?.reservedLamports }).toEqual({
      lamports: lost,
      reserved: 0,
    });
  });
});
