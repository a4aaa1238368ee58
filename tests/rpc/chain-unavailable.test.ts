/**
 * The service over RPC when its cluster goes away and comes back: requests that need the chain are
 * answered `503 chain_unavailable` (with Retry-After) and change nothing; once the localnet is back
 * on the same chain store, the same request with the same Idempotency-Key goes through, once.
 */
import { randomUUID } from "node:crypto";
import { createAccount, fundTestAccount, issueApiKey, type RunningService } from "@cpay/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";
import { type LocalnetService, startLocalnetService } from "../support/localnet-service";

describe("the service when its cluster is unreachable", () => {
  let localnet: LocalnetProcess;
  let running: LocalnetService;
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    localnet = await startLocalnetProcess({ slotMs: 50 });
    running = await startLocalnetService(localnet);
    service = running.service;
    const { account } = await createAccount(service.context, {
      handle: "payer",
      type: "business",
      kycStatus: "verified",
    });
    await createAccount(service.context, { handle: "payee", type: "business", kycStatus: "verified" });
    await fundTestAccount(service.context, running.faucet, account, {
      confidential: 0n,
      public: 5_000_000n,
    });
    key = (await issueApiKey(service.context, { accountId: account.id, name: "t", environment: "test" }))
      .value;
  });

  afterAll(async () => {
    await running?.close();
    await localnet?.remove();
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
