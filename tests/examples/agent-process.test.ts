/**
 * examples/agent as what it claims to be: an AI agent's own process. The localnet runs as its own
 * process, the API talks to it over RPC, and the example is spawned with only its documented
 * environment (its API key, signer secret, owner-derived confidential secret, the API and RPC URLs).
 * It pays `@merchant` in public and confidentially through `POST /v1/relay` and reads its budget;
 * an amount over the per-transaction limit is refused by the on-chain policy. The over-limit run
 * comes first: once the agent has spent confidentially, the program refuses any public spend that
 * UTC day before it looks at the amount (the third test shows that refusal).
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { type AccountRow, createAccount, fundTestAccount, issueApiKey, type RunningService } from "@cpay/api";
import { createApiClient, type TCreatedAgent } from "@cpay/sdk/api";
import {
  deriveAgentConfidentialSecret,
  exportConfidentialSecret,
  findTokenAccount,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_POLICY } from "../api/support/agents";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";
import { type LocalnetService, startLocalnetService } from "../support/localnet-service";

const REPO = resolve(import.meta.dirname, "../..");
const EXAMPLE = join(REPO, "examples/agent/src/main.ts");
const USDG = 1_000_000n;
/** What the example pays: public, then confidential (1.50 + 2.25 = 3.75 USDG). */
const PUBLIC_AMOUNT = 1_500_000n;
const CONFIDENTIAL_TEXT = "2.25";
const CONFIDENTIAL_UNITS = "2250000";

let localnet: LocalnetProcess;
let running: LocalnetService;
let service: RunningService;
let agent: TCreatedAgent;
let agentEnv: Record<string, string>;
let merchant: AccountRow;

interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The example as its own process, with `env` and nothing inherited. */
function runExample(args: readonly string[]): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", EXAMPLE, ...args], {
      cwd: REPO,
      env: agentEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", fail);
    child.once("exit", (code) => done({ code, stdout, stderr }));
  });
}

const jsonLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { step: string });

async function publicBalance(owner: string): Promise<bigint> {
  const { chain } = service.context;
  const account = await findTokenAccount(address(owner), address(chain.usdgMint));
  const data = (await chain.getAccount(account, "confirmed"))?.data;
  if (data === undefined) return 0n;
  // Token-2022 account layout: the amount is the u64 at offset 64.
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true);
}

beforeAll(async () => {
  localnet = await startLocalnetProcess();
  running = await startLocalnetService(localnet, { env: { LOG_LEVEL: "warn" } });
  ({ service } = running);
  const { faucet } = running;
  const owner = await createAccount(service.context, {
    handle: "owner",
    type: "business",
    kycStatus: "verified",
  });
  await fundTestAccount(service.context, faucet, owner.account, { public: 10n * USDG, confidential: 0n });
  merchant = (
    await createAccount(service.context, { handle: "merchant", type: "business", kycStatus: "verified" })
  ).account;

  const ownerKey = await issueApiKey(service.context, {
    accountId: owner.account.id,
    name: "owner",
    environment: "test",
  });
  const ownerClient = createApiClient({ baseUrl: service.url, apiKey: ownerKey.value });
  agent = await ownerClient.call("createAgent", {
    body: { name: "shopper", spend_policy: TEST_POLICY, custody: "self" },
  });
  if (agent.signer_secret === null) throw new Error("a self-custody agent came without its signer");
  const { accounts } = service.context.db.tables;
  const [agentRow] = await service.context.db.read((db) =>
    db.select().from(accounts).where(eq(accounts.id, agent.account_id)),
  );
  if (agentRow === undefined) throw new Error("the agent has no row");
  await fundTestAccount(service.context, faucet, agentRow, { public: 20n * USDG, confidential: 20n * USDG });
  const agentKey = await issueApiKey(service.context, {
    accountId: agent.account_id,
    name: "agent",
    environment: "test",
  });

  // The owner derives the agent's confidential secret client-side, the way README.md says.
  const agentSecret = exportConfidentialSecret(
    deriveAgentConfidentialSecret(importConfidentialSecret(owner.confidentialSecret), "owner/shopper"),
  );
  agentEnv = {
    CPAY_API_URL: service.url,
    CPAY_AGENT_API_KEY: agentKey.value,
    CPAY_AGENT_SIGNER_SECRET: agent.signer_secret,
    CPAY_AGENT_CONFIDENTIAL_SECRET: agentSecret,
    SOLANA_RPC_URL: localnet.rpcUrl(),
    SOLANA_WS_URL: localnet.wsUrl(),
  };
}, 300_000);

afterAll(async () => {
  await running?.close();
  await localnet?.remove();
});

describe("the example agent as its own process", () => {
  it("Given an amount over the per-transaction limit, When the example pays it, Then the on-chain policy refuses it, the process exits non-zero naming the rule, and nothing moves", async () => {
    const overLimit = String(TEST_POLICY.per_transaction_limit_usdg + 50);
    const run = await runExample(["@merchant", overLimit, "1"]);

    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toMatch(/policy_violation/);
    expect(run.stderr).toMatch(/per_transaction_limit_usdg/);
    expect(jsonLines(run.stdout)).toEqual([]);
    expect(await publicBalance(merchant.publicKey)).toBe(0n);
  }, 120_000);

  it("Given the agent's keys and the relay, When it pays @merchant 1.50 in public and 2.25 confidentially, Then both are accepted, its budget drops by 3.75, and no confidential amount is printed", async () => {
    const run = await runExample(["@merchant", "1.50", CONFIDENTIAL_TEXT]);
    expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);

    const lines = jsonLines(run.stdout);
    expect(lines.map((line) => line.step)).toEqual([
      "public_transfer",
      "confidential_transfer",
      "remaining_today",
    ]);
    const [paid, hidden, remaining] = lines as unknown as [
      { transfer: { transfer_id: string; status: string; confidential: boolean } },
      { transfer: { transfer_id: string; status: string; confidential: boolean } },
      { daily: string; per_transaction: string },
    ];
    expect(["pending", "confirmed"]).toContain(paid.transfer.status);
    expect(paid.transfer).toMatchObject({ confidential: false, to: "@merchant" });
    expect(["pending", "confirmed"]).toContain(hidden.transfer.status);
    expect(hidden.transfer).toMatchObject({ confidential: true, to: "@merchant" });
    expect(hidden.transfer).not.toHaveProperty("amount");

    const dailyLimit = BigInt(TEST_POLICY.daily_limit_usdg) * USDG;
    expect(BigInt(remaining.daily)).toBe(dailyLimit - 3_750_000n);
    expect(BigInt(remaining.per_transaction)).toBe(BigInt(TEST_POLICY.per_transaction_limit_usdg) * USDG);

    // The confidential amount appears nowhere the process printed, in either form.
    for (const printed of [run.stdout, run.stderr]) {
      expect(printed).not.toContain(CONFIDENTIAL_TEXT);
      expect(printed).not.toContain(CONFIDENTIAL_UNITS);
    }

    // The service side: the public 1.50 arrived, both transfers are recorded as the agent's.
    expect(await publicBalance(merchant.publicKey)).toBe(PUBLIC_AMOUNT);
    const { transfers } = service.context.db.tables;
    const rows = await service.context.db.read((db) =>
      db.select().from(transfers).where(eq(transfers.accountId, agent.account_id)),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(paid.transfer.transfer_id)).toMatchObject({ confidential: false });
    expect(byId.get(hidden.transfer.transfer_id)).toMatchObject({ confidential: true });
  }, 240_000);

  it("Given the agent spent confidentially today, When the example is run again, Then the public leg is refused by the program's rule for that day and nothing more moves", async () => {
    const run = await runExample(["@merchant", "1.50", CONFIDENTIAL_TEXT]);

    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toMatch(/policy_violation: the agent already spent confidentially today/);
    expect(run.stderr).toMatch(/\(confidential\)/);
    expect(jsonLines(run.stdout)).toEqual([]);
    expect(await publicBalance(merchant.publicKey)).toBe(PUBLIC_AMOUNT);
  }, 120_000);
});
