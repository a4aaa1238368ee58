/**
 * Scale-out as deployed (api/README.md, "Several API processes"), with real processes: two API
 * processes and the indexer on one PostgreSQL database, against the localnet process. @alice and
 * @bob send public and confidential transfers to @carol, several at once, split across both APIs,
 * each with its own Idempotency-Key; after a seeded number of the first API's answers and a seeded
 * delay, while requests to it are open, the first API is SIGKILLed. The client sends every request
 * without a final answer again, with the same key, to the second API, as a client behind a load
 * balancer would. What the dead process held (account turns, transfers in flight, idempotency
 * claims, job leads) lapses and the survivor takes it over; crash recovery judges what the dead
 * process left `submitting`; the indexer (the writer of `confirmed`) follows the chain.
 *
 * Then every transfer must end `confirmed` or `failed` exactly once: one transfer per key, one
 * terminal event per transfer, one recording transaction on chain per confirmed transfer and none
 * for a failed one (so no `not_landed` transfer ever landed or came back), the balances on chain
 * (confidential ones decrypted with the holders' keys) exactly the confirmed transfers, and one
 * rate-limit budget for a key used through both APIs at once.
 * Where the kill lands depends on timing; what must hold does not. SCALE_OUT_SEED explores others.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainPort } from "@cpay/sdk/chain";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, postgresServerUrl } from "../support/api-database";
import { type ApiBanner, apiProcess, startApi } from "../support/api-process";
import { keysFromSecret } from "../support/holder-keys";
import { localnetIndexerProcess } from "../support/indexer-process";
import { connectToLocalnet, localnetManifestOf } from "../support/localnet-chain";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";
import { transfersRecordedOnChain } from "../support/recorded-transfers";
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

const SEED = Number(process.env.SCALE_OUT_SEED ?? 11);
const SENDERS = ["alice", "bob"] as const;
const FUNDING = { confidential: usdg(40), public: usdg(10) } as const;
const TRANSFERS = 16;
const IN_FLIGHT = 4;
/** Small, so the burst below reaches it; the transfer and polling keys stay far below it. */
const RATE_LIMIT = 100;
/**
 * 50 ms slots: a blockhash lives 150 blocks, 7.5 s. A transaction the dead API signed can land only
 * while its blockhash lives, and crash recovery judges its transfer only once the transfer's lease
 * lapsed (15 s after its last renewal, renewed every 5 s while the request ran, so some 10 s after
 * that blockhash was taken) and the row is older than TRANSFER_RECONCILE_AFTER_SECONDS (10, the
 * least the API accepts): nothing of the dead process should land after its transfer was judged.
 * The checks run once every such blockhash has expired, so one that did would be seen.
 */
const SLOT_MS = 50;
const BLOCKHASH_LIFETIME_BLOCKS = 150n;
/** Bounds for a stuck system, never for pass/fail of a healthy one. */
const RETRY_DEADLINE_MS = 60_000;
const SETTLE_DEADLINE_MS = 90_000;

type Sender = (typeof SENDERS)[number];
interface PlannedTransfer {
  readonly key: string;
  readonly from: Sender;
  /** 0: the API that is killed, 1: the one that lives. */
  readonly api: 0 | 1;
  readonly confidential: boolean;
  readonly units: bigint;
}

const random = seeded(SEED);
// Each sender's transfers alternate between the APIs, and the senders alternate, so at any moment
// both senders have transfers open on both APIs.
const PLAN: readonly PlannedTransfer[] = Array.from({ length: TRANSFERS }, (_, index) => {
  // The first four are confidential: each sender's first two reach both APIs at the same moment,
  // and only the account's turn across processes keeps them from proving on the same balance.
  const confidential = index < 4 || random() < 0.5;
  // Far below the funding, so no transfer is refused for its balance whatever the mix.
  const units = confidential
    ? usdg(1 + Math.floor(random() * 4))
    : BigInt(1 + Math.floor(random() * 100)) * 10_000n;
  return {
    key: `scale-out-${SEED}-${index}`,
    from: SENDERS[index % 2] as Sender,
    api: (Math.floor(index / 2) % 2) as 0 | 1,
    confidential,
    units,
  };
});
/** The first API dies after this many of its answers... */
const KILL_AFTER_ANSWERS = 1 + Math.floor(random() * 3);
/**
 * ...and this long after it, or as soon as its last transfer was sent, always while a request to it
 * is open: on a fast machine its whole share can be answered within the delay.
 */
const KILL_DELAY_MS = Math.floor(random() * 1_500);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n);

interface Holder {
  readonly handle: string;
  readonly publicKey: string;
  readonly secret: string;
  /** Sends the transfers. */
  readonly key: string;
  /** Follows them (its own rate-limit budget). */
  readonly pollKey: string;
}

interface TransferRow {
  id: string;
  account_id: string;
  status: string;
  phase: string;
  failure_code: string | null;
  confidential: boolean;
  tx_signature: string | null;
}

describe("two API processes and the indexer on one PostgreSQL, one API SIGKILLed mid-stream", () => {
  const dir = mkdtempSync(join(tmpdir(), "cpay-scale-out-"));
  let dropDatabase: (() => Promise<void>) | null = null;
  let localnet: LocalnetProcess | null = null;
  const apis: ServiceProcess[] = [];
  let indexer: ServiceProcess | null = null;
  let chain: ChainPort | null = null;
  // However the test file ends, none of its processes outlives it (afterAll may never run if the
  // worker exits); the localnet also exits when its stdin closes.
  const killNow = () => {
    for (const api of apis) api.signalNow("SIGKILL");
    indexer?.signalNow("SIGKILL");
    localnet?.killNow();
  };
  process.once("exit", killNow);

  afterAll(async () => {
    await chain?.close();
    await Promise.all([...apis.map((api) => api.kill()), indexer?.kill()]);
    await localnet?.remove();
    await dropDatabase?.();
    process.off("exit", killNow);
    rmSync(dir, { recursive: true, force: true });
  });

  it("Given transfers of the same accounts through both APIs when one is SIGKILLed, When the client retries on the other, Then every transfer happens exactly once, none is resurrected and the limits and balances hold", async () => {
    const setupAt = Date.now();
    // Given PostgreSQL, the localnet, two API processes on one database and the indexer
    const database = await createPostgresDatabase(postgresServerUrl());
    dropDatabase = database.drop;
    localnet = await startLocalnetProcess({ dir: join(dir, "localnet"), slotMs: SLOT_MS });
    const manifest = localnetManifestOf(localnet);
    const adminToken = randomBytes(32).toString("base64url");
    const env = {
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN: adminToken,
      // One vault: both processes open the same sealed account keys.
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      DATABASE_URL: database.url,
      LOCALNET_DIR: localnet.dir,
      LOG_LEVEL: "warn",
      PROOF_WORKERS: "1",
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // A claim of the killed process is recovered after 2 s instead of 30 s.
      IDEMPOTENCY_LEASE_SECONDS: "2",
      // See SLOT_MS: long enough that nothing of the dead process lands after it is judged.
      TRANSFER_RECONCILE_AFTER_SECONDS: "10",
    };
    // The first API migrates the database and creates the demo accounts before anything else
    // starts on it; then the second API and the indexer start while the test's accounts are made
    // and funded through the first one's admin listener.
    apis.push(apiProcess({ ...env }), apiProcess({ ...env }));
    const [first, second] = apis as [ServiceProcess, ServiceProcess];
    const one = await startApi(first);
    indexer = localnetIndexerProcess(localnet, database.url, {
      PROGRAM_ID: manifest.programId,
      USDG_MINT: manifest.usdgMint,
    });
    chain = await connectToLocalnet(localnet);
    const outputs = () =>
      `--- api 1\n${first.output()}\n--- api 2\n${second.output()}\n--- indexer\n${indexer?.output()}`;

    // And @alice and @bob, funded public and confidential, and @carol, made through the first
    // API's admin listener; their keys issued through the second's
    const admin = async (api: ApiBanner, path: string, body: unknown) => {
      const response = await fetch(`${api.adminUrl}/admin${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`admin ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const account = async (handle: string, funded: boolean) => {
      const created = (await admin(one, "/accounts", {
        handle,
        type: "personal",
        kyc_status: "verified",
      })) as { account: { public_key: string }; confidential_secret: string };
      if (funded)
        await admin(one, `/accounts/${handle}/fund`, {
          confidential: usdgDecimal(FUNDING.confidential),
          public: usdgDecimal(FUNDING.public),
        });
      return { handle, publicKey: created.account.public_key, secret: created.confidential_secret };
    };
    const [two, indexerReady, made] = await Promise.all([
      startApi(second),
      indexer.start(),
      Promise.all([account("alice", true), account("bob", true), account("carol", false)]),
    ]);
    expect(one.url).not.toBe(two.url);
    const holder = async (made: { handle: string; publicKey: string; secret: string }): Promise<Holder> => {
      const key = (await admin(two, `/accounts/${made.handle}/keys`, { name: "send" })) as { value: string };
      const pollKey = (await admin(two, `/accounts/${made.handle}/keys`, { name: "poll" })) as {
        value: string;
      };
      return { ...made, handle: `@${made.handle}`, key: key.value, pollKey: pollKey.value };
    };
    const [alice, bob, carol] = (await Promise.all(made.map(holder))) as [Holder, Holder, Holder];
    const holders: Record<Sender, Holder> = { alice, bob };
    const readyAt = Date.now();

    // When one key sends twice its per-minute limit at once, half through each API
    const rateKey = ((await admin(one, "/accounts/carol/keys", { name: "rate" })) as { value: string }).value;
    const listThrough = async (api: ApiBanner) => {
      const response = await fetch(`${api.url}/v1/transfers?limit=1`, {
        headers: { authorization: `Bearer ${rateKey}` },
      });
      await response.arrayBuffer();
      return {
        status: response.status,
        remaining: response.headers.get("ratelimit-remaining"),
        retryAfter: response.headers.get("retry-after"),
      };
    };
    const burst = await Promise.all(
      Array.from({ length: 2 * RATE_LIMIT }, (_, index) => listThrough(index % 2 === 0 ? one : two)),
    );
    // Then exactly the limit is served, each count once across both (no increment lost, none
    // counted twice), and the rest refused; both APIs go on refusing the key
    const served = burst.filter((answer) => answer.status === 200);
    expect(served).toHaveLength(RATE_LIMIT);
    expect(burst.filter((answer) => answer.status === 429)).toHaveLength(RATE_LIMIT);
    expect(served.map((answer) => Number(answer.remaining)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: RATE_LIMIT }, (_, index) => index),
    );
    for (const api of [one, two]) {
      const after = await listThrough(api);
      expect(after.status).toBe(429);
      expect(Number(after.retryAfter)).toBeGreaterThan(0);
    }
    const rateCheckedAt = Date.now();

    // And the transfers are sent IN_FLIGHT at a time, each to its API, and the first API is
    // SIGKILLed while requests to it are open; the client sends a request that got no final answer
    // at once to the second API with the same key, until it gets one, and sends what was meant for
    // the first API to the second once the first is gone
    const answers = new Map<string, TransferAnswer[]>(PLAN.map((transfer) => [transfer.key, []]));
    const decided = (key: string) => (answers.get(key) ?? []).some(isFinal);
    const send = async (transfer: PlannedTransfer, api: ApiBanner) => {
      const answer = await postTransfer({
        apiUrl: api.url,
        apiKey: holders[transfer.from].key,
        idempotencyKey: transfer.key,
        body: { to: carol.handle, amount: usdgDecimal(transfer.units), confidential: transfer.confidential },
      });
      answers.get(transfer.key)?.push(answer);
      return answer;
    };
    const throughSecond = async (transfer: PlannedTransfer) => {
      const deadline = Date.now() + RETRY_DEADLINE_MS;
      while (!decided(transfer.key)) {
        if (Date.now() > deadline)
          throw new Error(
            `no final answer for ${transfer.key}: ${summary(answers.get(transfer.key) ?? [])}\n${outputs()}`,
          );
        if (!isFinal(await send(transfer, two))) await sleep(500);
      }
    };
    let next = 0;
    let openOnFirst = 0;
    let answeredByFirst = 0;
    let killing = false;
    let cutOff = 0;
    let failedOver = 0;
    let killHeight = 0n;
    let crashed: Promise<void> | null = null;
    const crash = async () => {
      const due = Date.now() + KILL_DELAY_MS;
      for (;;) {
        const sentAll = !PLAN.slice(next).some((transfer) => transfer.api === 0);
        if (openOnFirst > 0 && (sentAll || Date.now() >= due)) break;
        // Nothing left to cut off: kill anyway, and the assertion below says so.
        if (sentAll && openOnFirst === 0) break;
        await sleep(2);
      }
      killing = true;
      cutOff = openOnFirst;
      await first.kill();
      // Every blockhash the dead process took is at most this high (+ its lifetime).
      killHeight = await (chain as ChainPort).getBlockHeight("processed");
    };
    const sender = async () => {
      while (next < PLAN.length) {
        const transfer = PLAN[next++] as PlannedTransfer;
        if (transfer.api === 1 || killing) {
          if (transfer.api === 0) failedOver += 1;
          await throughSecond(transfer);
          continue;
        }
        openOnFirst += 1;
        const answer = await send(transfer, one).finally(() => {
          openOnFirst -= 1;
        });
        if (answer !== NO_ANSWER) {
          answeredByFirst += 1;
          if (answeredByFirst === KILL_AFTER_ANSWERS) crashed = crash();
        }
        if (!isFinal(answer)) await throughSecond(transfer);
      }
    };
    const streamAt = Date.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    expect(crashed, "the stream ended before the kill point").not.toBeNull();
    await crashed;
    expect(cutOff, "the kill cut no request off").toBeGreaterThan(0);
    const answeredAt = Date.now();

    // Then each key named exactly one transfer, whichever API answered and however often
    const idOf = new Map<string, string>();
    for (const transfer of PLAN) {
      const list = answers.get(transfer.key) ?? [];
      const named = new Set(list.map(transferOf).filter((id) => id !== undefined));
      expect(named.size, `${transfer.key}: ${summary(list)}`).toBe(1);
      idOf.set(transfer.key, [...named][0] as string);
    }
    const ids = new Set(idOf.values());
    expect(ids.size).toBe(PLAN.length);

    // And every transfer ends `confirmed` or `failed` (followed through the surviving API), and
    // none changes once it ended
    const seen = new Map<string, string[]>([...ids].map((id) => [id, []]));
    // A client that polls past its rate limit waits as told (the limit is not what this checks).
    const read = async <T>(path: string, who: Holder): Promise<T> => {
      for (;;) {
        const response = await fetch(`${two.url}${path}`, {
          headers: { authorization: `Bearer ${who.pollKey}` },
        });
        if (response.status === 429) {
          await sleep(Number(response.headers.get("retry-after") ?? 1) * 1000);
          continue;
        }
        expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
        return (await response.json()) as T;
      }
    };
    const observe = async () => {
      for (const who of [alice, bob]) {
        const list = await read<{ transfers: { transfer_id: string; status: string }[] }>(
          "/v1/transfers?limit=100",
          who,
        );
        for (const { transfer_id: id, status } of list.transfers) {
          const statuses = seen.get(id);
          expect(statuses, `${id} is not a transfer the client made`).toBeDefined();
          if (statuses !== undefined && statuses.at(-1) !== status) statuses.push(status);
        }
      }
    };
    const ended = (statuses: readonly string[]) => /^(confirmed|failed)$/.test(statuses.at(-1) ?? "");
    const settleDeadline = Date.now() + SETTLE_DEADLINE_MS;
    for (;;) {
      await observe();
      if ([...seen.values()].every(ended)) break;
      if (Date.now() > settleDeadline) {
        const open = [...seen].filter(([, statuses]) => !ended(statuses)).map(([id, s]) => `${id}: ${s}`);
        throw new Error(`not settled in time: ${open.join("; ")}\n${outputs()}`);
      }
      await sleep(1_000);
    }
    const settledAt = Date.now();
    // And none changes later: once every blockhash the dead process took has expired, nothing it
    // signed can land any more; the statuses are read again after the indexer's next passes (the
    // chain itself is read below, whatever the indexer did)
    while ((await chain.getBlockHeight("confirmed")) <= killHeight + BLOCKHASH_LIFETIME_BLOCKS)
      await sleep(100);
    // ... two passes of the indexer finished after that (the second started after the first had
    // ended, so it read the chain past the expiry), as its /health says, not a time assumed enough
    const expiredAt = new Date().toISOString();
    const passesSince = new Set<string>();
    const passDeadline = Date.now() + 60_000;
    while (passesSince.size < 2) {
      const health = (await (await fetch(indexerReady[1] as string)).json()) as {
        last_pass_at: string | null;
      };
      if (health.last_pass_at !== null && health.last_pass_at > expiredAt)
        passesSince.add(health.last_pass_at);
      if (Date.now() > passDeadline) throw new Error(`the indexer made no two passes in 60 s\n${outputs()}`);
      await sleep(50);
    }
    await observe();
    for (const transfer of PLAN) {
      const id = idOf.get(transfer.key) as string;
      const detail = await read<{ status: string }>(`/v1/transfers/${id}`, holders[transfer.from]);
      const statuses = seen.get(id) as string[];
      if (statuses.at(-1) !== detail.status) statuses.push(detail.status);
    }
    for (const [id, statuses] of seen) {
      expect(statuses.join(" -> "), id).toMatch(/^(pending -> )?(confirmed|failed)$/);
    }
    expect(indexer.running(), indexer.output()).toBe(true);
    expect(second.running(), second.output()).toBe(true);
    await second.stop();
    await indexer.stop();

    // The records, read once nothing writes to them any more
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const accountIds = (
        await db.query<{ id: string; handle: string }>(
          "SELECT id, handle FROM accounts WHERE handle IN ('@alice', '@bob', '@carol')",
        )
      ).rows;
      const accountOf = (handle: string) => accountIds.find((row) => row.handle === handle)?.id as string;
      const senderIds = [accountOf("@alice"), accountOf("@bob")];
      const rows = (
        await db.query<TransferRow>(
          "SELECT id, account_id, status, phase, failure_code, confidential, tx_signature FROM transfers WHERE account_id = ANY($1)",
          [senderIds],
        )
      ).rows;
      const bindings = (
        await db.query<{ account_id: string; key: string; resource_id: string }>(
          "SELECT account_id, key, resource_id FROM idempotency_keys WHERE account_id = ANY($1) AND resource_id LIKE 'tr_%'",
          [senderIds],
        )
      ).rows;
      const events = (
        await db.query<{ type: string; account_id: string; resource_id: string; fact_key: string }>(
          "SELECT type, account_id, resource_id, fact_key FROM events WHERE type LIKE 'transfer.%'",
        )
      ).rows;

      // And one binding per key, to the transfer its answers named; no transfer without a key
      expect(bindings.map((binding) => binding.key).sort()).toEqual(
        PLAN.map((transfer) => transfer.key).sort(),
      );
      for (const binding of bindings) expect(binding.resource_id, binding.key).toBe(idOf.get(binding.key));
      expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());

      // And each row is settled: confirmed, or failed because nothing of it landed
      for (const row of rows) {
        const planned = PLAN.find((transfer) => idOf.get(transfer.key) === row.id) as PlannedTransfer;
        expect(row.phase, row.id).toBe("settled");
        expect(row.account_id, row.id).toBe(accountOf(`@${planned.from}`));
        expect(row.confidential, row.id).toBe(planned.confidential);
        expect(row.status, row.id).toBe((seen.get(row.id) as string[]).at(-1));
        if (row.status === "failed") expect(row.failure_code, row.id).toBe("not_landed");
      }

      // And each fact is in the outbox once: one terminal event per transfer, the one of its status
      const facts = events.map((event) => `${event.type} ${event.account_id} ${event.resource_id}`);
      expect(new Set(facts).size, facts.join("\n")).toBe(facts.length);
      expect(new Set(events.map((event) => event.fact_key)).size).toBe(events.length);
      for (const row of rows) {
        const terminal = events.filter(
          (event) =>
            event.resource_id === row.id &&
            event.account_id === row.account_id &&
            /^transfer\.(confirmed|failed)$/.test(event.type),
        );
        expect(
          terminal.map((event) => event.type),
          row.id,
        ).toEqual([`transfer.${row.status}`]);
      }

      // And the chain has exactly one recording transaction per confirmed transfer (the row's
      // signature) and none for a failed one, nor any transfer the records do not have
      const onChain = new Map<string, string[]>();
      for (const who of [alice, bob]) {
        for (const [id, signatures] of await transfersRecordedOnChain(chain, who.publicKey))
          onChain.set(id, signatures);
      }
      for (const row of rows) {
        expect(onChain.get(row.id) ?? [], row.id).toEqual(
          row.status === "confirmed" ? [row.tx_signature] : [],
        );
      }
      for (const id of onChain.keys()) expect(ids.has(id), `${id} on chain`).toBe(true);

      // And the balances on chain are exactly the confirmed transfers; the confidential ones, each
      // proved on the balance the previous one left, decrypt to it with the holders' keys
      const confirmed = (filter: (transfer: PlannedTransfer) => boolean) =>
        sum(
          PLAN.filter(
            (transfer) =>
              filter(transfer) &&
              rows.find((row) => row.id === idOf.get(transfer.key))?.status === "confirmed",
          ).map((transfer) => transfer.units),
        );
      const publicOf = (who: Holder) => publicUsdgOn(chain as ChainPort, who.publicKey);
      const confidentialOf = (who: Holder) =>
        confidentialUsdgTotalOn(chain as ChainPort, who.publicKey, keysFromSecret(who.secret));
      for (const from of SENDERS) {
        const who = holders[from];
        expect(await publicOf(who), who.handle).toBe(
          FUNDING.public - confirmed((transfer) => transfer.from === from && !transfer.confidential),
        );
        expect(await confidentialOf(who), who.handle).toBe(
          FUNDING.confidential - confirmed((transfer) => transfer.from === from && transfer.confidential),
        );
      }
      expect(await publicOf(carol)).toBe(confirmed((transfer) => !transfer.confidential));
      expect(await confidentialOf(carol)).toBe(confirmed((transfer) => transfer.confidential));

      const count = (status: string) => rows.filter((row) => row.status === status).length;
      console.log(
        `scale-out: seed ${SEED}, kill ${KILL_DELAY_MS} ms after ${KILL_AFTER_ANSWERS} answers of API 1; ` +
          `${rows.length} transfers, ${count("confirmed")} confirmed, ${count("failed")} failed; ` +
          `${cutOff} requests cut off by the kill, ${failedOver} not sent to API 1 after it; ` +
          `setup ${readyAt - setupAt} ms, rate limit ${rateCheckedAt - readyAt} ms, ` +
          `transfers and retries ${answeredAt - streamAt} ms, settling ${settledAt - answeredAt} ms`,
      );
      for (const transfer of PLAN) {
        const id = idOf.get(transfer.key) as string;
        const row = rows.find((candidate) => candidate.id === id);
        console.log(
          `  ${transfer.key} (${transfer.from}, API ${transfer.api + 1}, ${transfer.confidential ? "confidential" : "public"}): ` +
            `${summary(answers.get(transfer.key) ?? [])} -> ${(seen.get(id) ?? []).join(" -> ")} ${row?.failure_code ?? ""}`,
        );
      }
    } finally {
      await db.end();
    }
  }, 240_000);
});
