/**
 * The admin CLI (`npm run admin -- <command>`) against a service started here with its admin
 * listener (`admin: true`, free ports, the admin token file in a temporary data dir): accounts, KYC,
 * keys (issue, list, revoke, usage decrypted client-side), the test faucet, agent keys, and bad input
 * refused with a message and a non-zero exit code. Most commands run through `runCli`, the function
 * `tools/src/admin-cli/main.ts` runs, in this process (each CLI process costs seconds of start-up); the
 * cases about the process itself (its environment variables and exit codes) start it as a process.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { format } from "node:util";
import { type RunningService, startService } from "@cpay/api";
import { RECEIPT_CLOSE_DISCRIMINATOR } from "@cpay/sdk";
import { createApiClient } from "@cpay/sdk/api";
import { runCli } from "@cpay/tools/admin-cli";
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabaseUrl } from "../support/api-database";
import { eventually } from "../support/eventually";
import { type IndexerBeside, startIndexerBeside } from "../support/indexer-beside";
import { reserveSettled } from "../support/reserve-settled";
import { startTestChain, type TestChain, testChainMode } from "../support/test-chain";
import { SMALL_POLICY } from "./support/agents";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "tools/src/admin-cli/main.ts");

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe("the admin CLI against a running service", () => {
  let testChain: TestChain | undefined;
  let indexer: IndexerBeside | undefined;
  let service: RunningService;
  let dataDir: string;
  let dropDatabase: () => Promise<void>;

  /**
   * Runs the CLI as a process with the service's admin URL and data dir (where admin.token is) in
   * its environment, plus `env`.
   */
  const cliProcess = (args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> =>
    new Promise((resolvePromise) => {
      execFile(
        process.execPath,
        ["--import", "tsx", CLI, ...args],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            CPAY_ADMIN_URL: service.admin?.url ?? "",
            CPAY_DATA_DIR: dataDir,
            ADMIN_TOKEN: "",
            ...env,
          },
          timeout: 60_000,
        },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
          resolvePromise({ code, stdout, stderr });
        },
      );
    });
  /** One in-process run at a time: each captures `console` while it runs. */
  let lastRun: Promise<unknown> = Promise.resolve();
  /** Runs the CLI in this process with `--admin-url` and `--data-dir` naming the service's. */
  const cli = (args: readonly string[]): Promise<CliRun> => {
    const run = lastRun.then(() => cliInProcess(args));
    lastRun = run.catch(() => undefined);
    return run;
  };
  const cliInProcess = async (args: readonly string[]): Promise<CliRun> => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => {
      stdout.push(`${format(...parts)}\n`);
    });
    const error = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
      stderr.push(`${format(...parts)}\n`);
    });
    try {
      const code = await runCli(
        ["node", "cpay-admin", "--admin-url", service.admin?.url ?? "", "--data-dir", dataDir, ...args],
        { writeOut: (text) => stdout.push(text), writeErr: (text) => stderr.push(text) },
      );
      return { code, stdout: stdout.join(""), stderr: stderr.join("") };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  };
  const cliJson = async <T>(args: readonly string[]): Promise<T> => {
    const run = await cli(["--json", ...args]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as T;
  };
  const clientFor = (apiKey: string) => createApiClient({ baseUrl: service.url, apiKey });
  const meStatus = async (apiKey: string) =>
    (await fetch(`${service.url}/v1/accounts/me`, { headers: { authorization: `Bearer ${apiKey}` } })).status;
  const keyIn = (text: string) => /svc_test_[A-Za-z0-9_-]{43}/.exec(text)?.[0] ?? "";

  /** What `payer` lost in the transactions it signed after `until`, receipt closures left out. */
  const reservePaidSince = async (until: string | undefined, payer: string): Promise<bigint> => {
    const { chain } = service.context;
    const window = await chain.getSignaturesForAddress(payer, {
      ...(until === undefined ? {} : { until }),
      commitment: "confirmed",
    });
    let paid = 0n;
    for (const { signature } of window) {
      const landed = await chain.getTransaction(signature, "confirmed");
      if (landed === null) throw new Error(`the reserve's transaction ${signature} is not readable`);
      if (closesReceipts(landed.wire, chain.programId)) continue;
      const at = landed.accountKeys.indexOf(payer);
      paid += (landed.preBalances[at] ?? 0n) - (landed.postBalances[at] ?? 0n);
    }
    return paid;
  };

  beforeAll(async () => {
    testChain = await startTestChain(testChainMode(), 50);
    dataDir = mkdtempSync(join(tmpdir(), "cpay-cli-"));
    const database = await freshDatabaseUrl(dataDir);
    dropDatabase = database.drop;
    service = await startService({
      env: {
        PORT: "0",
        ADMIN_PORT: "0",
        DATABASE_URL: database.url,
        SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
        RATE_LIMIT_PER_MINUTE: "100000",
        LOG_LEVEL: "silent",
      },
      dataDir,
      connection: await (testChain as TestChain).connect(),
      admin: true,
    });
    // Transfers made here confirm through the indexer, the one writer of `confirmed`.
    indexer = await startIndexerBeside({ service, openChain: (testChain as TestChain).openChain });
  });
  afterAll(async () => {
    await indexer?.close();
    await service?.close();
    await testChain?.stop();
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the admin surface on loopback only, behind the admin token kept in a 0600 file", async () => {
    expect(service.admin?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(join(dataDir, "admin.token")).mode & 0o777).toBe(0o600);
    const anonymous = await fetch(`${service.admin?.url}/admin/accounts`);
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(`${service.admin?.url}/admin/accounts`, {
      headers: { authorization: "Bearer not-the-token" },
    });
    expect(wrong.status).toBe(401);
    // And the CLI with a wrong token is refused too
    const refused = await cliProcess(["accounts", "list"], { ADMIN_TOKEN: "x".repeat(40) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("admin token");
  });

  it("creates an account, prints its secret once, lists it, and issues a key that works", async () => {
    // When the operator creates @alice (the CLI as a process: what an operator runs)
    const created = await cliProcess([
      "accounts",
      "create",
      "--handle",
      "alice",
      "--type",
      "personal",
      "--kyc",
      "verified",
    ]);
    // Then the CLI prints its id, handle, public key and, once, its confidential secret with a warning
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/created @alice \(personal, kyc verified\)/);
    expect(created.stdout).toMatch(/account id: +acct_[a-z2-7]{26}/);
    expect(created.stdout).toMatch(/public key: +[1-9A-HJ-NP-Za-km-z]{32,44}/);
    expect(created.stdout).toMatch(/shown ONCE/);
    expect(created.stdout).toMatch(/\n {4}[A-Za-z0-9+/]{44}\n/);
    // And the list shows it
    const list = await cli(["accounts", "list"]);
    expect(list.stdout).toMatch(/@alice +personal +verified +acct_/);
    // When a key is issued, it is printed once and works on /v1
    const issued = await cli(["keys", "issue", "@alice", "--name", "ci"]);
    expect(issued.code, issued.stderr).toBe(0);
    expect(issued.stdout).toContain("shown ONCE");
    const key = keyIn(issued.stdout);
    expect((await clientFor(key).call("getMe")).handle).toBe("@alice");
  });

  it("lists keys with last use and counts, revokes one (then 401), and refuses a second revocation", async () => {
    const issued = await cliJson<{ key: { id: string }; value: string }>([
      "keys",
      "issue",
      "alice",
      "--name",
      "temp",
    ]);
    expect(await meStatus(issued.value)).toBe(200);
    expect(await meStatus(issued.value)).toBe(200);
    // The list shows the display form, never the key, and the usage so far (request counts are
    // written once a second, so it is read until they are in)
    let list: CliRun = { code: -1, stdout: "", stderr: "" };
    const lineOf = (run: CliRun) => run.stdout.split("\n").find((row) => row.startsWith(issued.key.id)) ?? "";
    await expect
      .poll(
        async () => {
          list = await cli(["keys", "list", "alice"]);
          return lineOf(list);
        },
        { timeout: 10_000, interval: 200 },
      )
      .toMatch(/Z +- +2 +0 +-$/);
    expect(list.code, list.stderr).toBe(0);
    const line = lineOf(list);
    expect(line).toContain(`svc_test_...${issued.value.slice(-4)}`);
    expect(line).toMatch(/ temp /);
    expect(line).toMatch(/^key_[a-z2-7]{26} +temp +svc_test_\.\.\.\S{4} +20\S+Z +20\S+Z +- +2 +0 +-$/);
    expect(list.stdout).not.toContain(issued.value);
    // When the operator revokes it, the very next request is refused
    const revoked = await cli(["keys", "revoke", issued.key.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${issued.key.id}`);
    expect(await meStatus(issued.value)).toBe(401);
    // And a second revocation is refused
    const again = await cli(["keys", "revoke", issued.key.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already revoked");
  });

  it("funds from the test faucet, sets KYC, and decrypts a key's transferred total on the operator's side", async () => {
    // Given alice and bob, alice funded through the CLI faucet
    const alice = await cliJson<{ account: { handle: string }; confidential_secret: string }>([
      "accounts",
      "create",
      "--handle",
      "carol",
      "--kyc",
      "verified",
    ]);
    await cli(["accounts", "create", "--handle", "dave", "--kyc", "verified"]);
    const funded = await cli(["fund", "carol", "20", "--public", "1.5"]);
    expect(funded.code, funded.stderr).toBe(0);
    expect(funded.stdout).toContain("funded @carol");
    const key = await cliJson<{ key: { id: string }; value: string }>([
      "keys",
      "issue",
      "carol",
      "--name",
      "pay",
    ]);
    const carol = clientFor(key.value);
    expect((await carol.call("getBalances")).balances.map((entry) => entry.has_balance)).toEqual([
      true,
      true,
      false,
    ]);
    // When carol's key makes two confidential transfers
    for (const amount of ["2.5", "0.25"]) {
      const transfer = await carol.call("createTransfer", { body: { to: "@dave", amount } });
      await expect
        .poll(
          async () =>
            (await carol.call("getTransfer", { params: { transfer_id: transfer.transfer_id } })).status,
          {
            timeout: 20_000,
          },
        )
        .toBe("confirmed");
    }
    // Then without the secret the usage shows counts and says the total is encrypted
    const sealed = await cli(["keys", "usage", key.key.id]);
    expect(sealed.code, sealed.stderr).toBe(0);
    expect(sealed.stdout).toMatch(/transfers: +2/);
    expect(sealed.stdout).toContain("encrypted");
    // (searched with the ISO times set aside: a key made at hh:mm:02.75x would match by its clock)
    expect(sealed.stdout.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, "<time>")).not.toContain("2.75");
    // And with carol's secret the CLI decrypts the exact total
    const opened = await cli(["keys", "usage", key.key.id, "--secret", alice.confidential_secret]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(/transferred: +2\.75 USDG \(decrypted locally\)/);
    // While another account's secret does not read it
    const stranger = await cliJson<{ confidential_secret: string }>([
      "accounts",
      "create",
      "--handle",
      "erin",
    ]);
    const wrong = await cli(["keys", "usage", key.key.id, "--secret", stranger.confidential_secret]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("does not decrypt");
    // And KYC set through the CLI gates /v1 at once
    const pending = await cli(["accounts", "set-kyc", "@carol", "pending"]);
    expect(pending.stdout).toContain("@carol: kyc pending");
    expect(await meStatus(key.value)).toBe(403);
    await cli(["accounts", "set-kyc", "carol", "verified"]);
    expect(await meStatus(key.value)).toBe(200);
  });

  it("acts on the environment --environment names, refusing live where none is configured", async () => {
    const live = await cli(["--environment", "live", "accounts", "list"]);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain("this service has no live environment");
    const bogus = await cli(["--environment", "prod", "accounts", "list"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("--environment must be test or live");
  });

  it("issues an agent's own key with `agents keys issue`", async () => {
    const owner = await cliJson<{ value: string }>(["keys", "issue", "alice", "--name", "owner"]);
    const agent = await clientFor(owner.value).call("createAgent", {
      body: { name: "bot", spend_policy: SMALL_POLICY },
    });
    const issued = await cli(["agents", "keys", "issue", "@alice/bot", "--name", "agent"]);
    expect(issued.code, issued.stderr).toBe(0);
    const me = await clientFor(keyIn(issued.stdout)).call("getMe");
    expect(me).toMatchObject({ account_id: agent.account_id, handle: "@alice/bot", type: "agent" });
    const keys = await cliJson<{ keys: { name: string }[] }>(["keys", "list", "@alice/bot"]);
    expect(keys.keys.map((key) => key.name)).toEqual(["agent"]);
  });

  it("shows what the fee reserve is out for each account today, an agent's creation counted to its owner", async () => {
    const owner = await cliJson<{ value: string; account: { account_id: string } }>([
      "keys",
      "issue",
      "alice",
      "--name",
      "reserve",
    ]);
    const feePayer = service.context.feePayer.address;
    await reserveSettled(service.context);
    const { chain } = service.context;
    // The window starts after the reserve's newest transaction so far.
    const [newest] = await chain.getSignaturesForAddress(feePayer, { limit: 1 });
    const spentBefore = await cliJson<{ accounts: { account_id: string; spent_lamports: string }[] }>([
      "reserve",
    ]);
    const aliceBefore = BigInt(
      spentBefore.accounts.find((row) => row.account_id === owner.account.account_id)?.spent_lamports ?? "0",
    );
    await clientFor(owner.value).call("createAgent", {
      body: { name: "metered", spend_policy: SMALL_POLICY },
    });
    // What it cost is counted once it is readable, in the background: until then its maximum is.
    await reserveSettled(service.context);
    // What the reserve paid for it, from the chain: every transaction it signed in the window but
    // the receipt job's closures (rent coming back for other accounts' transfers, which that job
    // may do at any moment and which alice's day does not count).
    const paid = await reservePaidSince(newest?.signature, feePayer);
    const answer = await cliJson<{
      budget_lamports: string;
      accounts: { account_id: string; handle: string; spent_lamports: string; left_lamports: string }[];
    }>(["reserve"]);
    const alice = answer.accounts.find((row) => row.account_id === owner.account.account_id);
    expect(alice?.handle).toBe("@alice");
    expect(BigInt(alice?.spent_lamports ?? "0") - aliceBefore).toBe(paid);
    expect(BigInt(alice?.left_lamports ?? "0")).toBe(
      BigInt(answer.budget_lamports) - BigInt(alice?.spent_lamports ?? "0"),
    );
    const text = await cli(["reserve"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("@alice");
    expect((await cli(["reserve", "--day", "yesterday"])).code).toBe(1);
  });

  it("serves the fee reserve's balance to monitoring on the admin listener's /metrics, behind the admin token", async () => {
    const url = `${service.admin?.url}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    const token = readFileSync(join(dataDir, "admin.token"), "utf8").trim();
    // The watch reads the reserve as the service starts; wait for that first reading.
    const text = await eventually(
      async () => {
        const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-type")).toContain("text/plain");
        return answer.text();
      },
      (body) => body.includes("cpay_fee_reserve_lamports{"),
      30_000,
      100,
    );
    const gauge = (name: string) => {
      const match = new RegExp(`^${name}\\{environment="test"\\} (\\S+)$`, "m").exec(text);
      if (match === null) throw new Error(`${name} missing from:\n${text}`);
      return match[1] as string;
    };
    const lamports = BigInt(gauge("cpay_fee_reserve_lamports"));
    expect(lamports).toBeGreaterThan(0n);
    expect(gauge("cpay_fee_reserve_warn_lamports")).toBe("1000000000");
    expect(gauge("cpay_fee_reserve_low")).toBe(lamports < 1_000_000_000n ? "1" : "0");
    expect(Number(gauge("cpay_fee_reserve_reading_age_seconds"))).toBeGreaterThanOrEqual(0);
    // No live environment here: no live series.
    expect(text).not.toContain('environment="live"');
  });

  it("refuses bad input with a clear message and a non-zero exit code", async () => {
    const cases: [readonly string[], number, RegExp][] = [
      [["accounts", "create", "--handle", "bad handle!"], 1, /not allowed/],
      [["accounts", "create", "--handle", "alice"], 1, /taken/],
      [
        ["accounts", "create", "--handle", "x", "--type", "agent"],
        2,
        /Allowed choices are personal, business/,
      ],
      [["accounts", "create"], 2, /required option '--handle <handle>'/],
      [["accounts", "set-kyc", "alice", "sure"], 2, /Allowed choices/],
      [["accounts", "set-kyc", "@alice/bot", "verified"], 1, /agent/],
      [["keys", "list", "nobody"], 1, /no account @nobody/],
      [["keys", "issue", "alice"], 2, /--name/],
      [["keys", "revoke", "key_nope"], 1, /not a key id/],
      [["keys", "usage", "key_aaaaaaaaaaaaaaaaaaaaaaaaaa"], 1, /no key/],
      [["keys", "usage", "key_aaaaaaaaaaaaaaaaaaaaaaaaaa", "--secret", "short"], 1, /no key/],
      [["fund", "alice", "ten"], 2, /<usdg> must be a decimal number/],
      [["fund", "alice", "1", "--public", "-1"], 2, /--public must not be negative/],
      [["fund", "alice", "0"], 1, /positive amount/],
      [["fund", "alice", "1.0000001"], 2, /more than 6 decimals/],
      [["agents", "keys", "issue", "alice", "--name", "n"], 2, /not an agent handle/],
      [["frobnicate"], 2, /unknown command/],
    ];
    for (const [args, code, message] of cases) {
      const run = await cli(args);
      expect({ args, code: run.code }).toEqual({ args, code });
      expect(run.stderr, args.join(" ")).toMatch(message);
    }
    // The process's own exit codes: a usage error, no token at all, and no service listening
    const [unknown, noToken, noService] = await Promise.all([
      cliProcess(["frobnicate"]),
      cliProcess(["accounts", "list"], { CPAY_DATA_DIR: join(dataDir, "missing") }),
      cliProcess(["accounts", "list"], { CPAY_ADMIN_URL: "http://127.0.0.1:9" }),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command/);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("admin token");
    expect(noService.code).toBe(3);
    expect(noService.stderr).toContain("cannot reach");
  }, 180_000);
});

/** Whether a transaction's instructions include the program's receipt_close. */
function closesReceipts(wire: Uint8Array, programId: string): boolean {
  const message = getCompiledTransactionMessageDecoder().decode(
    getTransactionDecoder().decode(wire).messageBytes,
  );
  // The service signs legacy and v0 messages only.
  if (message.version === 1) throw new Error("a version 1 message from the service");
  return message.instructions.some(
    (instruction) =>
      message.staticAccounts[instruction.programAddressIndex] === programId &&
      RECEIPT_CLOSE_DISCRIMINATOR.every((byte, index) => instruction.data?.[index] === byte),
  );
}
