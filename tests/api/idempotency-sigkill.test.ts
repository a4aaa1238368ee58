/**
 * An `Idempotency-Key` claim survives the death of the process holding it: a child process claims
 * the key (and, in some cases, binds the resource it creates), hangs in the use case, and is killed
 * with SIGKILL. A retry with the same key then succeeds once the claim's lease ran out, instead of
 * `409 idempotency_in_progress` for 24 h: without a bound resource the use case runs; with a bound
 * transfer the answer is rebuilt from the transfer row (the use case never runs again, so nothing
 * is sent twice); with a bound agent (resumable) the use case resumes that agent.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServiceContext } from "@cpay/api";
import { runIdempotently } from "@cpay/api/idempotency";
import { generateMasterKeyHex, type MasterKey, parseMasterKey } from "@cpay/api/vault-crypto";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/api-database";

const LEASE_MS = 1_000;
/** A fresh Node process transpiling the api on a busy machine can take a while to start. */
const SPAWN_TIMEOUT_MS = 150_000;
const root = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/hold-idempotency-claim.ts", import.meta.url));

describe("an Idempotency-Key claim after its holder is SIGKILLed", () => {
  const dir = mkdtempSync(join(tmpdir(), "cpay-idem-kill-"));
  const masterKeyHex = generateMasterKeyHex();
  let url: string;
  let drop: () => Promise<void>;
  let db: Database;
  let service: ServiceContext;
  beforeAll(async () => {
    ({ url, drop } = await freshDatabaseUrl(dir));
    db = await openDatabase(url);
    service = {
      db,
      config: {
        masterKey: parseMasterKey(masterKeyHex),
        previousMasterKeys: [] as readonly MasterKey[],
        idempotencyLeaseMs: LEASE_MS,
      },
    } as ServiceContext;
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the fixture until it holds the claim, then kills it with SIGKILL. */
  async function claimAndKill(key: string, bind: string | null): Promise<void> {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fixture,
        JSON.stringify({
          databaseUrl: url,
          masterKeyHex,
          leaseMs: LEASE_MS,
          accountId: "acct_owner",
          key,
          fingerprint: "same-request",
          bind,
        }),
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk) => {
        output += String(chunk);
        if (output.includes("claimed")) resolve();
      });
      child.stderr?.on("data", (chunk) => {
        output += String(chunk);
      });
      child.on("exit", (code) => reject(new Error(`the claim holder exited (${code}) first:\n${output}`)));
    });
    const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const [row] = await db.read((q) => q.select().from(db.tables.idempotencyKeys));
    expect(row).toBeDefined();
  }

  const retry = (key: string, work: Parameters<typeof runIdempotently>[2]) =>
    runIdempotently(
      service,
      { accountId: "acct_owner", key, fingerprint: "same-request", waitMs: 5 * LEASE_MS },
      work,
    );

  it(
    "Given a holder killed before binding anything, When the request is retried, Then it runs and succeeds",
    async () => {
      await claimAndKill("k-unbound", null);
      let runs = 0;
      const answer = await retry("k-unbound", async () => {
        runs += 1;
        return { status: 201, body: { made: "once" } };
      });
      expect(answer).toEqual({ status: 201, body: { made: "once" }, replayed: false });
      expect(runs).toBe(1);
      const again = await retry("k-unbound", async () => ({ status: 201, body: { made: "twice" } }));
      expect(again).toEqual({ status: 201, body: { made: "once" }, replayed: true });
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    "Given a holder killed after binding a transfer that landed, When retried, Then the answer is rebuilt from the transfer and nothing runs again",
    async () => {
      const { transfers } = db.tables;
      await db.transaction((tx) =>
        tx
          .insert(transfers)
          .values({
            id: "tr_killedholder0000000000000",
            accountId: "acct_owner",
            apiKeyId: "key_1",
            fromHandle: "@owner",
            to: "@bob",
            recipientAddress: "11111111111111111111111111111111",
            asset: "USDG",
            confidential: true,
            status: "pending",
            phase: "submitted",
            txSignature: "5".repeat(88),
            signatures: "[]",
            createdAt: new Date().toISOString(),
          })
          .then(() => undefined),
      );
      await claimAndKill("k-transfer", "tr_killedholder0000000000000");
      let runs = 0;
      const answer = await retry("k-transfer", async () => {
        runs += 1;
        return { status: 201, body: { transfer_id: "tr_a_second_transfer" } };
      });
      expect(runs).toBe(0);
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ transfer_id: "tr_killedholder0000000000000", status: "pending" });
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    "Given a holder killed after binding an agent, When retried, Then the use case resumes that agent",
    async () => {
      await claimAndKill("k-agent", "acct_halfmadeagent");
      const resumed: (string | null)[] = [];
      const answer = await retry("k-agent", async (claim) => {
        resumed.push(claim.resumedResourceId);
        return { status: 201, body: { account_id: claim.resumedResourceId } };
      });
      expect(resumed).toEqual(["acct_halfmadeagent"]);
      expect(answer).toMatchObject({ status: 201, body: { account_id: "acct_halfmadeagent" } });
    },
    SPAWN_TIMEOUT_MS,
  );
});
