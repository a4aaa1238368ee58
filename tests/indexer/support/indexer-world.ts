/**
 * An API world with the indexer running beside it on the same database and the same chain (in
 * process, or the localnet process over RPC with CPAY_TEST_CHAIN=rpc), as production runs them (two processes, one outbox): the API records what it submits,
 * the indexer what the program's logs say, and each fact must fire once. The indexer can be stopped
 * and a new one started on the same database (a restart), and its history replayed from scratch.
 * Warnings and errors the indexer logs are kept, so a suite can show a pass never failed.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { sendInstructions, withReserveSpend } from "@cpay/api";
import { agentSignerOf } from "@cpay/api/vault";
import {
  createIndexWalk,
  type IndexerChain,
  indexerChainOver,
  type RunningIndexer,
  readCheckpoint,
  type runIndexPass,
  startIndexer,
} from "@cpay/indexer";
import type { AccountRow } from "@cpay/ledger";
import { buildAgentTransferInstruction } from "@cpay/sdk";
import { readAgentAccount } from "@cpay/sdk/agent-confidential";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from "@solana-program/token-2022";
import { asc, eq } from "drizzle-orm";
import pino, { type Logger } from "pino";
import { type ApiWorld, startApiWorld } from "../../support/api-world";

/** What one index pass needs (the indexer's `PassContext`). */
export type PassContext = Parameters<typeof runIndexPass>[0];

export interface IndexerWorld {
  readonly api: ApiWorld;
  readonly chain: IndexerChain;
  /** The indexer now running (replaced by `restartIndexer`). */
  readonly indexer: RunningIndexer;
  /** Every line the indexers logged at `warn` or above, parsed. */
  readonly indexerLogs: readonly Record<string, unknown>[];
  /** A pass context on the world's database, for passes run by hand. */
  readonly passContext: PassContext;
  /** Waits until the running indexer holds the leadership (it takes it at start). */
  waitForLeader(): Promise<void>;
  /** Runs passes until the checkpoint reached what the chain has at `confirmed`. */
  catchUp(): Promise<void>;
  /** Stops the running indexer (gives its leadership up); `restartIndexer` starts a new one. */
  stopIndexer(): Promise<void>;
  /** Starts a new indexer on the same database and waits until it leads. */
  restartIndexer(): Promise<RunningIndexer>;
  /** Deletes the indexer's checkpoint: the next pass walks the program's whole history again. */
  resetCheckpoint(): Promise<void>;
  /** The checkpoint's signature, or null. */
  checkpointSignature(): Promise<string | null>;
  /** The newest program transaction at `confirmed` or `finalized`, as the cluster lists it. */
  newestConfirmedProgramSignature(): Promise<string | null>;
  /** Rows of the events table (parsed payloads), oldest first. */
  events(): Promise<OutboxEvent[]>;
  close(): Promise<void>;
}

export interface OutboxEvent {
  readonly id: string;
  readonly type: string;
  readonly accountId: string;
  readonly resourceId: string;
  readonly factKey: string;
  readonly payload: Record<string, unknown>;
  readonly createdAt: string;
}

/** Starts the API world, then an indexer on its database (leading before this resolves). */
export async function startIndexerWorld(
  options: { readonly env?: Record<string, string> } = {},
): Promise<IndexerWorld> {
  const api = await startApiWorld({
    ...(options.env === undefined ? {} : { env: options.env }),
    // This world's indexer is its own (stopped, restarted, its passes run by hand).
    indexer: false,
  });
  const { db } = api.service.context;
  const chain = indexerChainOver(await api.openChain());
  const indexerLogs: Record<string, unknown>[] = [];
  const logger: Logger = pino(
    { level: "warn" },
    new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split("\n")) {
          if (line !== "") indexerLogs.push(JSON.parse(line) as Record<string, unknown>);
        }
        callback();
      },
    }),
  );
  const start = () =>
    startIndexer({
      db,
      databaseUrl: api.service.context.config.databaseUrl,
      chain,
      logger,
      leaseMs: 1000,
    });
  let indexer = start();
  let running = true;
  const passContext: PassContext = {
    db,
    clock: Date.now,
    usdgMint: api.chain.usdgMint,
    chain,
    logger,
    walk: createIndexWalk(),
  };

  const waitForLeader = async () => {
    const deadline = Date.now() + 10_000;
    while (!(await indexer.status()).leader) {
      if (Date.now() > deadline) throw new Error("the indexer did not take the leadership within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await waitForLeader();

  return {
    api,
    chain,
    get indexer() {
      return indexer;
    },
    indexerLogs,
    passContext,
    waitForLeader,
    catchUp: () => indexer.catchUp(),
    async stopIndexer() {
      running = false;
      await indexer.stop();
    },
    async restartIndexer() {
      if (running) await indexer.stop();
      indexer = start();
      running = true;
      await waitForLeader();
      return indexer;
    },
    async resetCheckpoint() {
      const { indexerCheckpoints } = db.tables;
      await db.transaction((tx) =>
        tx
          .delete(indexerCheckpoints)
          .where(eq(indexerCheckpoints.source, "program"))
          .then(() => undefined),
      );
    },
    async checkpointSignature() {
      return (await readCheckpoint(passContext))?.signature ?? null;
    },
    async newestConfirmedProgramSignature() {
      const [newest] = await api.chain.getSignaturesForAddress(api.chain.programId, {
        limit: 1,
        commitment: "confirmed",
      });
      return newest?.signature ?? null;
    },
    async events() {
      const { events } = db.tables;
      const rows = await db.read((q) =>
        q.select().from(events).orderBy(asc(events.createdAt), asc(events.id)),
      );
      // The facts only: `fanOutPending` is delivery bookkeeping the API's fan-out job flips in the
      // background, so two reads of the same facts may differ in it at any moment.
      return rows.map((row) => ({
        id: row.id,
        type: row.type,
        accountId: row.accountId,
        resourceId: row.resourceId,
        factKey: row.factKey,
        payload: JSON.parse(row.payload) as Record<string, unknown>,
        createdAt: row.createdAt,
      }));
    },
    async close() {
      if (running) await indexer.stop();
      await chain.close();
      await api.close();
    },
  };
}

/**
 * An agent spending through its PDA without the API: the transaction the API's public agent
 * transfer sends (api/src/transfers/agent-transfer.ts: the recipient's token account created if
 * missing, then `agent_transfer` signed by the agent signer, paid by the fee reserve), without the
 * API's transfer record and without any row. Returns the 16-byte transfer id and the signature.
 */
export async function sendAgentSignedTransfer(
  api: ApiWorld,
  input: { readonly agentAccountId: string; readonly to: AccountRow; readonly amount: bigint },
): Promise<{ readonly transferId: Uint8Array; readonly signature: string }> {
  const service = api.service.context;
  const agentRow = await api.accountRow(input.agentAccountId);
  const agent = address(agentRow.publicKey);
  const recipient = address(input.to.publicKey);
  const mint = address(api.chain.usdgMint);
  const [source, destination] = await Promise.all([
    findTokenAccount(agent, mint),
    findTokenAccount(recipient, mint),
  ]);
  const transferId = Uint8Array.from(randomBytes(16));
  const instructions = [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: service.feePayer,
      ata: destination,
      owner: recipient,
      mint,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    }),
    await buildAgentTransferInstruction({
      agentSigner: await agentSignerOf(service, input.agentAccountId),
      agent,
      nextHoldNonce: (await readAgentAccount(api.chain, agent)).nextHoldNonce,
      mint,
      source,
      destination,
      amount: input.amount,
      transferId,
      payer: service.feePayer,
      recipientHandle: input.to.handle.replace(/^@/, ""),
      programAddress: address(api.chain.programId),
    }),
  ];
  // Signed as the service's own spend (the test stands in for an agent acting outside the API).
  const signature = await withReserveSpend(service, null, () => sendInstructions(service, instructions));
  return { transferId, signature };
}
