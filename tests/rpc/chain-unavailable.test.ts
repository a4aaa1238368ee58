/**
 * The service over RPC when its cluster goes away and comes back: requests that need the chain are
 * answered `503 chain_unavailable` (with Retry-After) and change nothing; once the localnet is back
 * on the same chain store, the same request with the same Idempotency-Key goes through, once.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChainConnection,
  createAccount,
  fundTestAccount,
  issueApiKey,
  localnetConnection,
  type RunningService,
  startService,
} from "@cpay/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../support/api-database";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";

describe("the service when its cluster is unreachable", () => {
  let localnet: LocalnetProcess;
  let connection: ChainConnection;
  let service: RunningService;
  let dataDir: string;
  let dropDatabase: () => Promise<void>;
  let key: string;

  beforeAll(async () => {
    localnet = await startLocalnetProcess({ slotMs: 50 });
    connection = await localnetConnection(localnet.manifestPath);
    dataDir = mkdtempSync(join(tmpdir(), "cpay-unavailable-"));
    const database = await freshDatabaseUrl(dataDir);
    dropDatabase = database.drop;
    service = await startService({
      env: {
        PORT: "0",
        DATABASE_URL: database.url,
        SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
        LOG_LEVEL: "silent",
      },
      dataDir,
      connection,
    });
    const { account } = await createAccount(service.context, {
      handle: "payer",
      type: "business",
      kycStatus: "verified",
    });
    await createAccount(service.context, { handle: "payee", type: "business", kycStatus: "verified" });
    await fundTestAccount(service.context, connection.testFaucet as never, account, {
      confidential: 0n,
      public: 5_000_000n,
    });
    key = (await issueApiKey(service.context, { accountId: account.id, name: "t", environment: "test" }))
      .value;
  });

  afterAll(async () => {
    await service?.close();
    await connection?.close();
    await localnet?.remove();
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (idempotencyKey: string) =>
    fetch(`${service.url}/v1/transfers`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": idempotencyKey,
      },
      body: JSON.stringify({ to: "@payee", amount: "1.00", confidential: false }),
    });
  const transferCount = async () =>
    (await (
      await fetch(`${service.url}/v1/transfers`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      total: number;
    };

  it("Given the localnet stopped, When a transfer is requested, Then 503 chain_unavailable and nothing is written; When it is back, Then the retry with the same key makes the transfer once", async () => {
    await localnet.stop();
    const idempotencyKey = randomUUID();
    const refused = await post(idempotencyKey);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("chain_unavailable");
    expect((await transferCount()).total).toBe(0);

    await localnet.restart();
    const accepted = await post(idempotencyKey);
    expect(accepted.status).toBe(201);
    const again = await post(idempotencyKey);
    expect(again.status).toBe(201);
    expect(((await again.json()) as { transfer_id: string }).transfer_id).toBe(
      ((await accepted.json()) as { transfer_id: string }).transfer_id,
    );
    expect((await transferCount()).total).toBe(1);
  });
});
