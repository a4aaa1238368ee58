/**
 * The whole topology of scripts/start.sh (localnet, API, indexer: three processes over JSON-RPC)
 * survives a crash in the middle of a stream of transfers. @demo sends public and confidential
 * transfers to @merchant through POST /v1/transfers, several at once, each with its own
 * Idempotency-Key; a seeded delay after a seeded number of answers the localnet and the API are
 * SIGKILLed and started again on the same chain store and database (the indexer lives through it). The
 * client then retries, with the same key, every request that got no final answer, as a real
 * client does. Whatever the kill interrupted, each
 * transfer must end `confirmed` or `failed` exactly once (one terminal event), no key may make two
 * transfers, no event may be written twice, the balances on chain must be exactly the confirmed
 * transfers, and the restarted localnet must be the same chain (genesis hash).
 * Which request the kill catches where depends on timing; what must hold does not.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainPort } from "@cpay/sdk/chain";
import Sqlite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { apiProcess, startApi } from "../support/api-process";
import { keysFromSecret } from "../support/holder-keys";
import { localnetIndexerProcess } from "../support/indexer-process";
import { connectToLocalnet } from "../support/localnet-chain";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";
import { seeded } from "../support/seeded";
import type { ServiceProcess } from "../support/service-process";
import {
  isFinal,
  NO_ANSWER,
  postTransfer,
  summary,
  type TransferAnswer,
  transferOf,
} from "../support/transfer-answers";
import { confidentialUsdgTotalOn, publicUsdgOn } from "../support/usdg-balances";
import { usdg, usdgDecimal } from "../support/usdg-units";

/** What scripts/start.sh gives @demo (api/src/admin/demo-accounts.ts). */
const DEMO_CONFIDENTIAL = usdg(1_000);
const DEMO_PUBLIC = usdg(100);
/** RESTART_SEED explores other plans and kill points; CI runs the fixed one. */
const SEED = Number(process.env.RESTART_SEED ?? 0x16_2026);
const TRANSFERS = 12;
const IN_FLIGHT = 3;
/** Bounds for a stuck system, never for pass/fail of a healthy one. */
const RETRY_DEADLINE_MS = 60_000;
const SETTLE_DEADLINE_MS = 60_000;

interface PlannedTransfer {
  readonly key: string;
  readonly confidential: boolean;
  readonly units: bigint;
}

const random = seeded(SEED);
const PLAN: readonly PlannedTransfer[] = Array.from({ length: TRANSFERS }, (_, index) => {
  const confidential = random() < 0.5;
  // Public amounts stay far below @demo's 100 public USDG so no request is refused for balance.
  const units = confidential
    ? usdg(1 + Math.floor(random() * 20))
    : BigInt(1 + Math.floor(random() * 500)) * 10_000n;
  return { key: `restart-${SEED}-${index}`, confidential, units };
});
/** The localnet and the API die right after this many answers. */
const KILL_AFTER_ANSWERS = 2 + Math.floor(random() * 3);
/**
 * ...and this long after it, so the kill falls in different steps of the transfers in flight
 * (proofs, the row written, the transaction sent, waiting for it to land).
 */
const KILL_DELAY_MS = Math.floor(random() * 1_500);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("the start topology after the localnet and the API are SIGKILLed mid-stream", () => {
  const dir = mkdtempSync(join(tmpdir(), "cpay-restart-"));
  const databaseUrl = join(dir, "cpay.sqlite");
  let localnet: LocalnetProcess | null = null;
  let api: ServiceProcess | null = null;
  let indexer: ServiceProcess | null = null;
  let chain: ChainPort | null = null;

  afterAll(async () => {
    await chain?.close();
    await api?.stop();
    await indexer?.stop();
    await localnet?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it("Given transfers in flight when both die, When the client retries with the same keys, Then every transfer ends once, no funds move twice and the chain is the same", async () => {
    // Given the three processes of the start command, on free ports, with their data in `dir`
    localnet = await startLocalnetProcess({ dir: join(dir, "localnet"), slotMs: 100 });
    const genesisBefore = manifestGenesis(localnet.manifestPath);
    api = apiProcess({
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN: randomBytes(32).toString("base64url"),
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      DATABASE_URL: databaseUrl,
      LOCALNET_DIR: localnet.dir,
      LOG_LEVEL: "warn",
      PROOF_WORKERS: "1",
      // A claim of the killed process is recovered after 2 s instead of 30 s.
      IDEMPOTENCY_LEASE_SECONDS: "2",
      // A transfer the kill left `submitting` is judged after 20 s instead of 120 s: a blockhash
      // lives 150 slots, 15 s at this localnet's 100 ms, so nothing of the dead API lands later.
      TRANSFER_RECONCILE_AFTER_SECONDS: "20",
    });
    const banner = await startApi(api);
    let apiUrl = banner.url;
    const apiKey = banner.demoKey;
    const secret = banner.demoSecret;
    expect(secret, api.output()).not.toBeNull();
    indexer = localnetIndexerProcess(localnet, databaseUrl);
    await indexer.start();
    const startedAt = Date.now();

    const post = (transfer: PlannedTransfer) =>
      postTransfer({
        apiUrl,
        apiKey,
        idempotencyKey: transfer.key,
        body: { to: "@merchant", amount: usdgDecimal(transfer.units), confidential: transfer.confidential },
      });
    /** Every answer each key got, in order (a retry's answer must name the same transfer). */
    const answers = new Map<string, TransferAnswer[]>(PLAN.map((transfer) => [transfer.key, []]));
    const decided = (key: string) => (answers.get(key) ?? []).some(isFinal);

    // When the transfers are sent IN_FLIGHT at a time, and the localnet and the API are SIGKILLed
    // KILL_DELAY_MS after the KILL_AFTER_ANSWERS-th answer (the requests still open lose their
    // answer; the senders go on sending until the kill)
    let answered = 0;
    let openRequests = 0;
    let killing = false;
    let crashed: Promise<void> | null = null;
    // The kill lands KILL_DELAY_MS after the kill point, or earlier once the last transfer has been
    // sent, and always while a request is open: on a fast machine the whole plan can be answered
    // within the delay, and a kill between requests would cut nothing off.
    const crash = async () => {
      const due = Date.now() + KILL_DELAY_MS;
      for (;;) {
        const sentAll = next >= PLAN.length;
        if (openRequests > 0 && (sentAll || Date.now() >= due)) break;
        // Nothing left to cut off: kill anyway, and the assertion below says so.
        if (sentAll && openRequests === 0) break;
        await sleep(2);
      }
      killing = true;
      await Promise.all([localnet?.kill(), api?.kill()]);
    };
    let next = 0;
    const sender = async () => {
      while (!killing && next < PLAN.length) {
        const transfer = PLAN[next++] as PlannedTransfer;
        openRequests += 1;
        const answer = await post(transfer).finally(() => {
          openRequests -= 1;
        });
        answers.get(transfer.key)?.push(answer);
        if (answer === NO_ANSWER) continue;
        answered += 1;
        if (answered === KILL_AFTER_ANSWERS) crashed = crash();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    expect(crashed, "the stream ended before the kill point").not.toBeNull();
    await crashed;
    // the kill cut requests off (the other senders were waiting for their answers)
    const cutOff = [...answers.values()].filter((list) => list.includes(NO_ANSWER)).length;
    expect(cutOff).toBeGreaterThan(0);
    const killedAt = Date.now();

    // And both are started again on the same chain store and database (the localnet on its ports, so
    // the indexer, which lived through it, finds it again)
    await localnet.restart();
    expect(manifestGenesis(localnet.manifestPath)).toBe(genesisBefore);
    apiUrl = (await startApi(api)).url;

    // And the client retries every request without a final answer (and sends the ones it had not
    // sent yet), each with its own key, until it gets one
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    const retry = async (transfer: PlannedTransfer) => {
      while (!decided(transfer.key)) {
        if (Date.now() > deadline)
          throw new Error(
            `no final answer for ${transfer.key}: ${summary(answers.get(transfer.key) ?? [])}\n${api?.output()}`,
          );
        openRequests += 1;
        const answer = await post(transfer).finally(() => {
          openRequests -= 1;
        });
        answers.get(transfer.key)?.push(answer);
        if (!isFinal(answer)) await sleep(500);
      }
    };
    const open = PLAN.filter((transfer) => !decided(transfer.key));
    for (let start = 0; start < open.length; start += IN_FLIGHT) {
      await Promise.all(open.slice(start, start + IN_FLIGHT).map(retry));
    }

    // Then every transfer the service made ends `confirmed` or `failed`
    const ids = new Set<string>();
    for (const [key, list] of answers) {
      const named = new Set(list.map(transferOf).filter((id) => id !== undefined));
      // a retry's answer names the transfer of the first answer, never a second one
      expect(named.size, `${key}: ${summary(list)}`).toBeLessThanOrEqual(1);
      for (const id of named) ids.add(id as string);
    }
    const retriedAt = Date.now();
    const settled = await waitForSettlement(apiUrl, apiKey, SETTLE_DEADLINE_MS);
    const settledAt = Date.now();
    for (const id of ids) expect(settled.get(id), id).toMatch(/^(confirmed|failed)$/);
    for (const [id, status] of settled)
      expect(status, `${id}\n${api.output()}`).toMatch(/^(confirmed|failed)$/);

    // And the balances on chain are exactly the confirmed transfers
    chain = await connectToLocalnet(localnet);
    expect(chain.genesisHash).toBe(genesisBefore);
    expect(indexer.running(), indexer.output()).toBe(true);
    await api.stop();
    await indexer.stop();

    // The database is read only now, with nothing writing to it.
    const db = new Sqlite(databaseUrl, { readonly: true, fileMustExist: true });
    try {
      const accounts = db.prepare("SELECT id, handle, public_key FROM accounts").all() as {
        id: string;
        handle: string;
        public_key: string;
      }[];
      const publicKeyOf = (handle: string) =>
        accounts.find((account) => account.handle === handle)?.public_key as string;
      const transfers = db
        .prepare(
          "SELECT id, status, phase, failure_code, confidential FROM transfers WHERE from_handle = '@demo'",
        )
        .all() as {
        id: string;
        status: string;
        phase: string;
        failure_code: string | null;
        confidential: number;
      }[];
      const bindings = db
        .prepare("SELECT key, resource_id FROM idempotency_keys WHERE resource_id LIKE 'tr_%'")
        .all() as { key: string; resource_id: string }[];
      const events = db
        .prepare("SELECT type, account_id, resource_id, fact_key FROM events WHERE type LIKE 'transfer.%'")
        .all() as { type: string; account_id: string; resource_id: string; fact_key: string }[];

      // no Idempotency-Key made two transfers, and no transfer exists without its key
      expect(new Set(bindings.map((binding) => binding.key)).size).toBe(bindings.length);
      expect(new Set(bindings.map((binding) => binding.resource_id)).size).toBe(bindings.length);
      expect(transfers.map((row) => row.id).sort()).toEqual(
        bindings.map((binding) => binding.resource_id).sort(),
      );
      for (const id of ids)
        expect(
          transfers.some((row) => row.id === id),
          id,
        ).toBe(true);
      for (const row of transfers) expect(row.phase, row.id).toBe("settled");

      // exactly one terminal event per transfer for @demo, matching its status, and no event twice
      // for one account (the recipient gets its own copy of a confirmation)
      const seen = new Set(events.map((event) => `${event.type} ${event.account_id} ${event.resource_id}`));
      expect(seen.size, JSON.stringify(events, null, 1)).toBe(events.length);
      const demoId = accounts.find((account) => account.handle === "@demo")?.id;
      for (const row of transfers) {
        const terminal = events.filter(
          (event) =>
            event.resource_id === row.id &&
            event.account_id === demoId &&
            /^transfer\.(confirmed|failed)$/.test(event.type),
        );
        expect(
          terminal.map((event) => event.type),
          row.id,
        ).toEqual([`transfer.${row.status}`]);
      }

      const planOf = new Map(
        bindings.map((binding) => [binding.resource_id, PLAN.find((t) => t.key === binding.key)]),
      );
      let confidentialOut = 0n;
      let publicOut = 0n;
      for (const row of transfers) {
        const planned = planOf.get(row.id);
        expect(planned, row.id).toBeDefined();
        expect(Boolean(row.confidential)).toBe(planned?.confidential);
        if (row.status !== "confirmed" || planned === undefined) continue;
        if (planned.confidential) confidentialOut += planned.units;
        else publicOut += planned.units;
      }
      const keys = keysFromSecret(secret as string);
      const demo = publicKeyOf("@demo");
      expect(await confidentialUsdgTotalOn(chain, demo, keys)).toBe(DEMO_CONFIDENTIAL - confidentialOut);
      expect(await publicUsdgOn(chain, demo)).toBe(DEMO_PUBLIC - publicOut);
      expect(await publicUsdgOn(chain, publicKeyOf("@merchant"))).toBe(publicOut);
      console.log(
        `restart: seed ${SEED}, kill ${KILL_DELAY_MS} ms after ${KILL_AFTER_ANSWERS} answers; ${transfers.length} transfers, ` +
          `${transfers.filter((row) => row.status === "confirmed").length} confirmed, ` +
          `${transfers.filter((row) => row.status === "failed").length} failed; ` +
          `${cutOff} requests cut off by the kill; ` +
          `stream ${killedAt - startedAt} ms, restart + retries ${retriedAt - killedAt} ms, settling ${settledAt - retriedAt} ms`,
      );
      for (const [key, list] of answers) {
        const named = list.map(transferOf).find((id) => id !== undefined);
        const row = transfers.find((transfer) => transfer.id === named);
        console.log(
          `  ${key}: ${summary(list)} -> ${row?.status ?? "no transfer"} ${row?.failure_code ?? ""}`,
        );
      }
    } finally {
      db.close();
    }
  }, 240_000);
});

function manifestGenesis(path: string): string {
  return (JSON.parse(readFileSync(path, "utf8")) as { genesisHash: string }).genesisHash;
}

/** Polls the transfer list until nothing is `pending`; returns each transfer's status. */
async function waitForSettlement(
  apiUrl: string,
  apiKey: string,
  deadlineMs: number,
): Promise<Map<string, string>> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const response = await fetch(`${apiUrl}/v1/transfers?limit=100`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const list = (await response.json()) as { transfers: { transfer_id: string; status: string }[] };
    const statuses = new Map(list.transfers.map((transfer) => [transfer.transfer_id, transfer.status]));
    if (![...statuses.values()].includes("pending") || Date.now() > deadline) return statuses;
    await sleep(500);
  }
}
