/**
 * The indexer as its own process (`indexer/src/main.ts`, the standalone start command, reading the
 * chain over the localnet's RPC + PubSub), killed with SIGKILL at random points while a stream of
 * program transactions lands, and restarted each time. When the stream ends and the last indexer has
 * caught up, the database must say exactly what the chain says: every program event recorded once
 * at its (signature, instruction, event) position, every transfer the chain executed confirmed with
 * one `transfer.initiated` and one `transfer.confirmed`, every recipient that is a service account
 * told once, every hold recorded once. Nothing lost, nothing twice.
 *
 * The stream is a fixed count of transfers, funded for exactly that count: transfers the API makes
 * (the API and the indexer both observe them) mixed with transfers an agent signs through its PDA
 * itself, which only the indexer can record. Each kill is due at a point of the stream (a count of
 * transfers sent) drawn from a seeded generator; the seed is printed so a failure can be replayed
 * (`SIGKILL_SEED=<n>`). Nothing in the schedule is a duration, so a slow machine runs the same test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { idFromBytes } from "@cpay/ledger/ids";
import { type Localnet, startLocalnet } from "@cpay/localnet/rpc";
import { parseAgentPolicyEvents } from "@cpay/sdk";
import type { SignatureInfo } from "@cpay/sdk/chain";
import { address } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAgent, TEST_POLICY } from "../api/support/agents";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";
import { seeded } from "../support/seeded";
import { sendAgentSignedTransfer } from "./support/indexer-world";

const KILLS = 6;
const SEED = Number(process.env.SIGKILL_SEED ?? Math.floor(Math.random() * 2 ** 31));

let world: ApiWorld;
/** Where the indexer process reads the chain: the world's localnet process, or a server of our own. */
let rpc: { readonly rpcUrl: string; readonly wsUrl: string };
/** The RPC server this suite started over the in-process simulator (null in rpc mode). */
let ownServer: Localnet | null = null;
let alice: WorldAccount;
let bob: WorldAccount;
let agentId: string;
const output: string[] = [];
/** Every indexer process started, so none outlives a test that failed half way. */
const started = new Set<ChildProcess>();

beforeAll(async () => {
  // The indexer under test is the process this suite kills: none runs beside the service.
  world = await startApiWorld({ slotMs: 50, indexer: false });
  // That process reaches the chain over RPC: the world's localnet process in rpc mode, else this
  // suite serves the in-process simulator itself.
  if (world.localnet !== null) {
    rpc = { rpcUrl: world.localnet.rpcUrl(), wsUrl: world.localnet.wsUrl() };
  } else {
    ownServer = await startLocalnet({ cluster: world.cluster, rpcPort: 0, wsPort: 0 });
    rpc = { rpcUrl: ownServer.rpcUrl, wsUrl: ownServer.wsUrl };
  }
  alice = await world.account("alice");
  bob = await world.account("bob");
  // Funded for the stream below, no more: a stream longer than planned fails at once.
  await world.fund(alice.account, { public: needed("api", API_AMOUNT) });
  const agent = await createTestAgent(world, alice, "runner", { ...TEST_POLICY, daily_limit_usdg: 100_000 });
  agentId = agent.row.id;
  await world.fund(agent.row, { public: needed("agent", AGENT_AMOUNT) });
});

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited(child);
  }
  await ownServer?.close();
  await world?.close();
});

/** Starts `npm run indexer`'s program on the world's database and the localnet. */
function startIndexerProcess(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "indexer/src/main.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    env: {
      ...process.env,
      DATABASE_URL: world.service.context.config.databaseUrl,
      RPC_URL: rpc.rpcUrl,
      RPC_WS_URL: rpc.wsUrl,
      PROGRAM_ID: world.chain.programId,
      USDG_MINT: world.chain.usdgMint,
      INDEXER_PORT: "0",
      INDEXER_POLL_MS: "100",
      // A killed leader's SQLite lease runs out quickly, so the restarted one leads again soon.
      INDEXER_LEASE_MS: "600",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  child.stdout?.on("data", (chunk) => output.push(String(chunk)));
  child.stderr?.on("data", (chunk) => output.push(String(chunk)));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The newest program transaction at confirmed commitment. */
async function newestConfirmed(): Promise<string | undefined> {
  const [newest] = await world.chain.getSignaturesForAddress(world.chain.programId, {
    limit: 1,
    commitment: "confirmed",
  });
  return newest?.signature;
}

/** Every program transaction at confirmed commitment, newest first (all pages). */
async function programHistory(): Promise<SignatureInfo[]> {
  const history: SignatureInfo[] = [];
  for (;;) {
    const before = history.at(-1)?.signature;
    const page = await world.chain.getSignaturesForAddress(world.chain.programId, {
      limit: 1000,
      commitment: "confirmed",
      ...(before === undefined ? {} : { before }),
    });
    history.push(...page);
    if (page.length < 1000) return history;
  }
}

/** Whether the indexer's checkpoint is `signature` or a transaction newer than it. */
async function reached(signature: string): Promise<boolean> {
  const checkpoint = await checkpointSignature();
  if (checkpoint === null) return false;
  const history = await programHistory();
  const at = history.findIndex((entry) => entry.signature === checkpoint);
  return at !== -1 && at <= history.findIndex((entry) => entry.signature === signature);
}

async function checkpointSignature(): Promise<string | null> {
  const { db } = world.service.context;
  const [row] = await db.read((q) => q.select().from(db.tables.indexerCheckpoints));
  return row?.signature ?? null;
}

/**
 * The stream, as a fixed list: every fourth transfer alice's through the API (1 USDG), every fourth
 * the agent's above its HITL threshold (held: nothing leaves its account), the rest the agent's own
 * 2 USDG spends. Fixed so that alice and the agent are funded for exactly this, whatever the
 * machine's speed: a stream that ran until told to stop sent as many transfers as the kills took
 * time, and on a busy machine ran the agent out of USDG.
 */
const TRANSFERS = (KILLS + 1) * 8;
type StreamTransfer = "api" | "agent" | "held";
const STREAM: readonly StreamTransfer[] = Array.from({ length: TRANSFERS }, (_, index) =>
  index % 4 === 0 ? "api" : index % 4 === 3 ? "held" : "agent",
);
/** What alice's `createTransfer` of `amount: "1"` spends. */
const API_AMOUNT = usdg(1);
const AGENT_AMOUNT = usdg(2);
/** Above TEST_POLICY's 50 USDG HITL threshold, within its 100 USDG per-transaction limit. */
const HELD_AMOUNT = usdg(60);
const needed = (kind: StreamTransfer, amount: bigint) =>
  BigInt(STREAM.filter((transfer) => transfer === kind).length) * amount;

/** Polls `done` every 20 ms until it holds; the deadline is a safety net, not the schedule. */
async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  stopped: () => unknown,
): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await done())) {
    if (stopped() !== undefined) throw new Error(`stopped waiting for ${what}: the other half failed`);
    if (Date.now() > deadline)
      throw new Error(`${what} not within 120 s (seed ${SEED}):\n${output.join("")}`);
    await sleep(20);
  }
}

describe("the indexer process under SIGKILL", () => {
  // Six kills, each waiting for a freshly started indexer process to index again: on a busy 2-core
  // machine, and over RPC, more than vitest's minute.
  it("Given a stream of transactions and an indexer killed at random points, When the last one catches up, Then its records equal the chain's: nothing lost, nothing twice", async () => {
    console.log(`indexer SIGKILL schedule seed: ${SEED}`);
    const random = seeded(SEED);
    // The stream is cut in KILLS + 1 equal segments, each sent while one indexer process runs;
    // process k is killed once it is indexing (its checkpoint moved) and the stream has sent a
    // random count into segment k. The schedule counts transfers, not milliseconds, so a slow
    // machine runs the same test slower, never a different one.
    const segment = TRANSFERS / (KILLS + 1);
    const killAfter = Array.from(
      { length: KILLS },
      (_, kill) => kill * segment + 1 + Math.floor(random() * segment),
    );
    let sent = 0;
    let running = 0;
    let failure: unknown;
    const stopped = () => failure;
    /** Runs one half; its failure stops the other half's waits, so both settle. */
    const half = async (work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        failure ??= error;
        throw error;
      }
    };

    const stream = async () => {
      for (const [index, kind] of STREAM.entries()) {
        await until(
          `indexer ${Math.floor(index / segment)} started`,
          () => running >= Math.floor(index / segment),
          stopped,
        );
        if (kind === "api") {
          await alice.client.call("createTransfer", {
            body: { to: "@bob", amount: "1", confidential: false },
          });
        } else {
          // A "held" one is above the agent's HITL threshold: the program holds it for alice.
          await sendAgentSignedTransfer(world, {
            agentAccountId: agentId,
            to: bob.account,
            amount: kind === "held" ? HELD_AMOUNT : AGENT_AMOUNT,
          });
        }
        sent += 1;
      }
    };

    let child = startIndexerProcess();
    // Where each killed process had got to.
    const checkpointsAtKill: (string | null)[] = [];
    const killer = async () => {
      for (let kill = 0; kill < KILLS; kill++) {
        const startedAt = await checkpointSignature();
        await until(
          `indexer ${kill} indexing`,
          async () => (await checkpointSignature()) !== startedAt,
          stopped,
        );
        await until(`transfer ${killAfter[kill]} sent`, () => sent >= (killAfter[kill] as number), stopped);
        child.kill("SIGKILL");
        await exited(child);
        checkpointsAtKill.push(await checkpointSignature());
        child = startIndexerProcess();
        running = kill + 1;
      }
    };
    // Both halves settle before the test goes on or fails: no rejection is left unhandled, and no
    // indexer process is started after afterAll stopped the others.
    await Promise.allSettled([half(stream), half(killer)]);
    if (failure !== undefined) throw failure;

    // Let the chain confirm the last transactions, then the last indexer catch up with them. The
    // service's receipt job lands `receipt_close` transactions of its own once receipts are old
    // enough, so the chain may go on past the stream: the indexer must reach the stream's newest
    // transaction, and its records are compared with the chain's history up to where it stopped.
    await world.slots(3);
    const target = await newestConfirmed();
    if (target === undefined) throw new Error("the chain has no program transaction");
    // A safety net: a restarted process on a busy machine takes seconds to start.
    const deadline = Date.now() + 120_000;
    while (!(await reached(target))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(
          `the indexer did not catch up to ${target} (at ${await checkpointSignature()}, seed ${SEED}):\n${output.join("")}`,
        );
      }
      await sleep(200);
    }
    child.kill("SIGTERM");
    await exited(child);
    const stoppedAt = await checkpointSignature();
    if (stoppedAt === null) throw new Error("the last indexer left no checkpoint");

    expect(sent).toBe(TRANSFERS);
    expect(new Set(checkpointsAtKill.filter((signature) => signature !== null)).size).toBeGreaterThanOrEqual(
      3,
    );
    await expectRecordsEqualTheChain(stoppedAt);
  }, 360_000);
});

/**
 * Compares every indexed record with what the chain's program transactions say, up to and
 * including `checkpoint` (where the indexer stopped).
 */
async function expectRecordsEqualTheChain(checkpoint: string): Promise<void> {
  const { db } = world.service.context;
  const { indexedEvents, transfers, events, holds } = db.tables;
  const programAddress = address(world.chain.programId);

  const expectedPositions: string[] = [];
  const executed = new Set<string>();
  const held = new Set<string>();
  // The truth is the chain's own history at confirmed, read through the port as any client would.
  const history = await programHistory();
  const from = history.findIndex((entry) => entry.signature === checkpoint);
  if (from === -1) throw new Error(`the checkpoint ${checkpoint} is not in the chain's history`);
  for (const entry of history.slice(from)) {
    if (entry.err !== null) continue;
    const landed = await world.chain.getTransaction(entry.signature, "confirmed");
    if (landed === null) throw new Error(`${entry.signature} is listed at confirmed but not served`);
    const perInstruction = new Map<number, number>();
    for (const event of parseAgentPolicyEvents(landed.logs, { programAddress }).events) {
      const index = perInstruction.get(event.instructionIndex) ?? 0;
      perInstruction.set(event.instructionIndex, index + 1);
      expectedPositions.push(`${entry.signature}/${event.instructionIndex}/${index}/${event.name}`);
      if (!("transferId" in event.data)) continue;
      const id = idFromBytes("tr", Uint8Array.from(event.data.transferId));
      if (event.name === "ServiceTransferRecorded" || event.name === "TransferExecuted") executed.add(id);
      if (event.name === "TransactionHeld") held.add(id);
    }
  }

  const indexed = await db.read((q) => q.select().from(indexedEvents));
  const positions = indexed.map(
    (row) => `${row.signature}/${row.instructionIndex}/${row.eventIndex}/${row.event}`,
  );
  expect(positions.sort()).toEqual(expectedPositions.sort());

  const transferRows = await db.read((q) => q.select().from(transfers));
  const byId = new Map(transferRows.map((row) => [row.id, row]));
  for (const id of executed) {
    expect(byId.get(id)?.status, `transfer ${id}`).toBe("confirmed");
  }
  for (const id of held) {
    expect(byId.get(id)?.phase, `held transfer ${id}`).toBe("held");
  }
  expect(executed.size + held.size).toBe(transferRows.length);

  const holdRows = await db.read((q) => q.select().from(holds));
  expect(holdRows.map((row) => row.transferId).sort()).toEqual([...held].sort());

  const outbox = await db.read((q) => q.select().from(events));
  const count = (factKey: string) => outbox.filter((row) => row.factKey === factKey).length;
  for (const id of executed) {
    expect(count(`transfer.initiated:${id}`), id).toBe(1);
    expect(count(`transfer.confirmed:${id}`), id).toBe(1);
    // Every transfer of the stream pays @bob, a service account: told once.
    expect(count(`transfer.confirmed:${id}:received`), id).toBe(1);
  }
  const heldRows = holdRows.map((row) => row.id);
  for (const id of heldRows) expect(count(`agent.transaction.pending_approval:${id}`)).toBe(1);
  const expectedEvents = executed.size * 3 + heldRows.length;
  expect(outbox.length).toBe(expectedEvents);
}
