/**
 * Test and live as two separate worlds behind one API process: a localnet configured as "devnet"
 * (the test environment, through its manifest, as `npm start` runs it) and another as "mainnet"
 * (the live environment, named only by `LIVE_` settings: URLs, program id, a USDG mint that awaits
 * the issuer's approval of each confidential account, a fee reserve behind a KMS-style signing
 * program and a registrar key file), each with its own database and its own indexer process. A `svc_test_` key moves funds on the test cluster only and its records are
 * only in the test database; a `svc_live_` key likewise on the live side; neither can name the
 * other's accounts, and each list of transfers is its own environment's. A live account's holder
 * enrols and signs in to the dashboard with the `X-Cpay-Environment` header (the public steps carry
 * no credential to route by) and gets a `sess_live_` session of the live account; links, headers and
 * cookies of the wrong environment are refused, changing nothing.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type KeyFileConnection, localnetConnection } from "@cpay/api";
import { loadSigner } from "@cpay/api/environments";
import { buildConfigInitializeInstruction } from "@cpay/sdk";
import { address } from "@solana/kit";
import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiProcess, startApi } from "../support/api-process";
import { writeExecSigner, writeKeypairFile } from "../support/exec-signer";
import { indexerProcess } from "../support/indexer-process";
import { localnetManifestOf } from "../support/localnet-chain";
import { type LocalnetProcess, startLocalnetProcess } from "../support/localnet-process";
import { sendAs } from "../support/send-as";
import type { ServiceProcess } from "../support/service-process";
import { createSoftAuthenticator } from "../support/soft-authenticator";
import { postTransfer, type TransferAnswer } from "../support/transfer-answers";

const ROOT = resolve(import.meta.dirname, "../..");
const USDG = 1_000_000n;
const ADMIN_TOKEN = randomBytes(32).toString("base64url");

/** A JSON answer of `/v1` (a session view, an account, an error). */
type Answer = { error?: { code: string; param?: string }; [field: string]: unknown };

describe("one service, a test environment on one cluster and a live one on another", () => {
  const dir = mkdtempSync(join(tmpdir(), "cpay-environments-"));
  const testDb = join(dir, "test.sqlite");
  const liveDb = join(dir, "live.sqlite");
  let testnet: LocalnetProcess;
  let mainnet: LocalnetProcess;
  let testChain: KeyFileConnection;
  let liveChain: KeyFileConnection;
  let api: ServiceProcess;
  const indexers: ServiceProcess[] = [];
  let apiUrl = "";
  let adminUrl = "";
  let testKey = "";
  let liveKey = "";

  const admin = async <T>(environment: "test" | "live", path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${adminUrl}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        "content-type": "application/json",
        "x-cpay-environment": environment,
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const get = async (key: string, path: string) => {
    const response = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const transfer = (key: string, to: string, amount: string): Promise<TransferAnswer> =>
    postTransfer({
      apiUrl,
      apiKey: key,
      idempotencyKey: `env-${randomBytes(8).toString("hex")}`,
      body: { to, amount, confidential: false },
    });
  const rowsOf = (database: string, sql: string) => {
    const db = new Sqlite(database, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as Record<string, string>[];
    } finally {
      db.close();
    }
  };
  /** The transfer's signature once it is confirmed (bounded only against a stuck system). */
  const signatureOf = async (key: string, id: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { body } = await get(key, `/v1/transfers/${id}`);
      if (body.status === "confirmed") return body.tx_signature as string;
      if (body.status === "failed" || Date.now() > deadline)
        throw new Error(`${id}: ${JSON.stringify(body)}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };

  beforeAll(async () => {
    // The live cluster's USDG is like Paxos' on mainnet-beta: each confidential account awaits the
    // issuer's approval; the public path works without it.
    [testnet, mainnet] = await Promise.all([
      startLocalnetProcess(),
      startLocalnetProcess({ env: { LOCALNET_USDG_AUTO_APPROVE: "0" } }),
    ]);
    testChain = await localnetConnection(testnet.manifestPath);
    liveChain = await localnetConnection(mainnet.manifestPath);
    const live = localnetManifestOf(mainnet);

    // The live cluster set up as an operator would: its config names a registrar of its own, and
    // the service signs as the fee reserve only through a signing program.
    const registrar = writeKeypairFile(dir, "live-registrar");
    const upgradeAuthority = await loadSigner("upgrade authority", {
      provider: "file",
      path: join(mainnet.dir, live.keypairs.programUpgradeAuthority),
    });
    await sendAs(liveChain.chain, upgradeAuthority, [
      await buildConfigInitializeInstruction({
        admin: upgradeAuthority,
        registrar: address(registrar.address),
        programAddress: address(live.programId),
      }),
    ]);
    const feeReserveSigner = writeExecSigner(dir, {
      path: join(mainnet.dir, live.keypairs.feeReserve),
      address: liveChain.feePayer.address,
    });

    api = apiProcess({
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN,
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      PROOF_WORKERS: "1",
      DATABASE_URL: testDb,
      LOCALNET_DIR: testnet.dir,
      LIVE_DATABASE_URL: liveDb,
      LIVE_RPC_URL: mainnet.rpcUrl(),
      LIVE_WS_URL: mainnet.wsUrl(),
      LIVE_PROGRAM_ID: live.programId,
      LIVE_USDG_MINT: live.usdgMint,
      LIVE_FEE_RESERVE_SIGNER: `exec:${feeReserveSigner}`,
      LIVE_REGISTRAR_SIGNER: `file:${registrar.path}`,
      RESERVE_MIN_LAMPORTS: String(10n * 1_000_000_000n),
    });
    const banner = await startApi(api);
    apiUrl = banner.url;
    adminUrl = banner.adminUrl;
    testKey = banner.demoKey;

    const indexer = (env: NodeJS.ProcessEnv) => indexerProcess({ INDEXER_POLL_MS: "200", ...env });
    indexers.push(
      indexer({ DATABASE_URL: testDb, RPC_URL: testnet.rpcUrl(), RPC_WS_URL: testnet.wsUrl() }),
      indexer({
        INDEXER_ENVIRONMENT: "live",
        LIVE_DATABASE_URL: liveDb,
        LIVE_RPC_URL: mainnet.rpcUrl(),
        LIVE_WS_URL: mainnet.wsUrl(),
        LIVE_PROGRAM_ID: live.programId,
        LIVE_USDG_MINT: live.usdgMint,
      }),
    );
    await Promise.all(indexers.map((process) => process.start()));

    // Live accounts exist only in the live database, made through the admin surface's live side.
    for (const handle of ["livepayer", "liveshop"]) {
      await admin("live", "/admin/accounts", { handle, type: "business", kyc_status: "verified" });
    }
    liveKey = (await admin<{ value: string }>("live", "/admin/accounts/livepayer/keys", { name: "live" }))
      .value;
    const me = await get(liveKey, "/v1/accounts/me");
    expect(me.status).toBe(200);
    expect(me.body.confidential_status).toBe("awaiting_approval");
    // The live cluster has no faucet the service could use; the test mints as the issuer would.
    await liveChain.testFaucet?.mintUsdgToOwner(me.body.public_key as string, 10n * USDG);
  }, 240_000);

  afterAll(async () => {
    await api?.stop();
    await Promise.all(indexers.map((process) => process.stop()));
    await testChain?.close();
    await liveChain?.close();
    await Promise.all([testnet?.remove(), mainnet?.remove()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the two environments on two different chains", () => {
    expect(localnetManifestOf(testnet).genesisHash).not.toBe(localnetManifestOf(mainnet).genesisHash);
    expect(testKey.startsWith("svc_test_")).toBe(true);
    expect(liveKey.startsWith("svc_live_")).toBe(true);
    expect(api.output()).toMatch(/live:\s+http:\/\/127\.0\.0\.1:\d+ \(genesis /);
  });

  it("moves a test key's funds on the test cluster only, and a live key's on the live cluster only", async () => {
    const testAnswer = await transfer(testKey, "@merchant", "1.25");
    expect(testAnswer.status, JSON.stringify(testAnswer.body)).toBe(201);
    const liveAnswer = await transfer(liveKey, "@liveshop", "2.5");
    expect(liveAnswer.status, JSON.stringify(liveAnswer.body)).toBe(201);
    const testId = testAnswer.body.transfer_id as string;
    const liveId = liveAnswer.body.transfer_id as string;

    const testSignature = await signatureOf(testKey, testId);
    const liveSignature = await signatureOf(liveKey, liveId);
    expect(await testChain.chain.getTransaction(testSignature)).not.toBeNull();
    expect(await liveChain.chain.getTransaction(testSignature)).toBeNull();
    expect(await liveChain.chain.getTransaction(liveSignature)).not.toBeNull();
    expect(await testChain.chain.getTransaction(liveSignature)).toBeNull();

    // Each record is in its own environment's database only.
    const ids = (database: string) => rowsOf(database, "SELECT id FROM transfers").map((row) => row.id);
    expect(ids(testDb)).toContain(testId);
    expect(ids(testDb)).not.toContain(liveId);
    expect(ids(liveDb)).toEqual([liveId]);
    const handles = (database: string) =>
      rowsOf(database, "SELECT handle FROM accounts").map((row) => row.handle);
    expect(handles(liveDb).sort()).toEqual(["@livepayer", "@liveshop"]);
    expect(handles(testDb)).not.toContain("@livepayer");

    // A key reads only its own environment: its list, and never the other's transfer by id.
    const testList = await get(testKey, "/v1/transfers");
    const liveList = await get(liveKey, "/v1/transfers");
    const listed = (answer: { body: Record<string, unknown> }) =>
      (answer.body.transfers as { transfer_id: string }[]).map((row) => row.transfer_id);
    expect(listed(testList)).toContain(testId);
    expect(listed(testList)).not.toContain(liveId);
    expect(listed(liveList)).toEqual([liveId]);
    expect((await get(testKey, `/v1/transfers/${liveId}`)).status).toBe(404);
    expect((await get(liveKey, `/v1/transfers/${testId}`)).status).toBe(404);
  });

  it("never lets a key reach the other environment's accounts or chain", async () => {
    const testToLive = await transfer(testKey, "@liveshop", "1");
    expect(testToLive.status).toBe(404);
    expect(testToLive.body.error?.code).toBe("recipient_not_found");
    const liveToTest = await transfer(liveKey, "@merchant", "1");
    expect(liveToTest.status).toBe(404);
    expect(liveToTest.body.error?.code).toBe("recipient_not_found");
    // A live key does not exist for the test side, nor a test key for the live side.
    expect((await get(liveKey, "/v1/accounts/me")).body.handle).toBe("@livepayer");
    expect((await get(testKey, "/v1/accounts/me")).body.handle).toBe("@demo");
    expect((await get(`svc_live_${randomBytes(32).toString("base64url")}`, "/v1/accounts/me")).status).toBe(
      401,
    );
  });

  it("issues keys only in their own environment's database, and the admin CLI picks the environment", async () => {
    await expect(
      admin("test", "/admin/accounts/demo/keys", { name: "live in test", environment: "live" }),
    ).rejects.toThrow(/400 .*--environment live/);
    const listed = await new Promise<string>((resolvePromise, reject) => {
      execFile(
        join(ROOT, "node_modules/.bin/tsx"),
        [join(ROOT, "tools/src/admin-cli/main.ts"), "--environment", "live", "--json", "accounts", "list"],
        { cwd: ROOT, env: { ...process.env, CPAY_ADMIN_URL: adminUrl, ADMIN_TOKEN }, timeout: 30_000 },
        (error, stdout, stderr) => (error === null ? resolvePromise(stdout) : reject(new Error(stderr))),
      );
    });
    const handles = (JSON.parse(listed) as { accounts: { handle: string }[] }).accounts.map(
      (row) => row.handle,
    );
    expect(handles.sort()).toEqual(["@livepayer", "@liveshop"]);
  });

  it("keeps both indexers running on their own environment", async () => {
    for (const process of indexers) {
      expect(process.running(), process.output()).toBe(true);
      const health = /"health":"(http:\/\/[^"]+)"/.exec(process.output())?.[1];
      expect(health, process.output()).toBeDefined();
      expect((await fetch(health as string)).status).toBe(200);
    }
    expect(indexers[1]?.output()).toMatch(/"environment":"live"/);
  });

  it("enrols and signs in a live account's holder on the dashboard with X-Cpay-Environment: live", async () => {
    const origin = `http://localhost:${new URL(apiUrl).port}`;
    const holder = createSoftAuthenticator({ origin });
    // The challenge binding the options steps give this browser, sent back as a browser does.
    let challengeBinding: string | null = null;
    const dashboard = async (
      path: string,
      init: { body?: unknown; environment?: string; cookie?: string; key?: string; csrf?: string } = {},
    ) => {
      const headers: Record<string, string> = {};
      if (init.environment !== undefined) headers["x-cpay-environment"] = init.environment;
      const cookies = [
        ...(init.cookie === undefined ? [] : [`cpay_session=${init.cookie}`]),
        ...(challengeBinding === null ? [] : [`cpay_challenge=${challengeBinding}`]),
      ];
      if (cookies.length > 0) headers.cookie = cookies.join("; ");
      if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
      if (init.csrf !== undefined) headers["x-csrf-token"] = init.csrf;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${apiUrl}${path}`, {
        method: init.body === undefined ? "GET" : "POST",
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const setCookies = response.headers.getSetCookie().join("\n");
      const cookie = /cpay_session=(sess_[a-z]+_[A-Za-z0-9_-]{43});/.exec(setCookies)?.[1];
      challengeBinding = /^cpay_challenge=([A-Za-z0-9_-]{43});/m.exec(setCookies)?.[1] ?? challengeBinding;
      return { status: response.status, body: (await response.json()) as Answer, cookie };
    };
    const tokenOf = (answer: { enrollment_link: string }) =>
      /#token=(enr_[a-z]+_[A-Za-z0-9_-]{43})$/.exec(answer.enrollment_link)?.[1] as string;
    const dashboardRows = (database: string) =>
      ["enrollment_tokens", "webauthn_challenges", "sessions", "passkeys"].map((table) =>
        rowsOf(database, `SELECT * FROM ${table} ORDER BY id`),
      );

    // Each environment issues links for its own accounts, naming itself in the token.
    const liveToken = tokenOf(await admin("live", "/admin/accounts/livepayer/enrollment-link", {}));
    const testToken = tokenOf(await admin("test", "/admin/accounts/merchant/enrollment-link", {}));
    expect(liveToken).toMatch(/^enr_live_/);
    expect(testToken).toMatch(/^enr_test_/);

    // Refusals first, each changing nothing in either database.
    const before = [dashboardRows(testDb), dashboardRows(liveDb)];
    const options = "/v1/dashboard/enrollment/options";
    for (const [token, environment] of [
      [liveToken, "test"],
      [liveToken, undefined],
      [testToken, "live"],
    ] as const) {
      const answer = await dashboard(options, { body: { token }, ...(environment ? { environment } : {}) });
      expect(answer.status, `${token.slice(0, 9)} in ${environment}`).toBe(404);
      expect(answer.body.error?.code).toBe("enrollment_link_invalid");
    }
    // A header that contradicts the key or the session cookie the request carries.
    for (const contradiction of [
      { key: liveKey, environment: "test" },
      { key: testKey, environment: "live" },
      { cookie: `sess_test_${"A".repeat(43)}`, environment: "live" },
      { cookie: `sess_live_${"A".repeat(43)}`, environment: "test" },
    ]) {
      const answer = await dashboard("/v1/accounts/me", contradiction);
      expect(answer.status, JSON.stringify(contradiction)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: "invalid_request", param: "x-cpay-environment" });
    }
    const bad = await dashboard("/v1/dashboard/sign-in/options", { body: {}, environment: "mainnet" });
    expect(bad.status).toBe(400);
    expect([dashboardRows(testDb), dashboardRows(liveDb)]).toEqual(before);

    // The live link, in the live environment.
    const begun = await dashboard(options, { body: { token: liveToken }, environment: "live" });
    expect(begun.body.handle).toBe("@livepayer");
    const enrolled = await dashboard("/v1/dashboard/enrollment", {
      body: { token: liveToken, credential: holder.register(begun.body.options), passkey_name: "live" },
      environment: "live",
    });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    expect(enrolled.cookie).toMatch(/^sess_live_/);
    expect(enrolled.body).toMatchObject({ environment: "live", account: { handle: "@livepayer" } });

    // Sign-in names the environment; the test one does not know this passkey.
    const signIn = async (environment?: string) => {
      const named = environment === undefined ? {} : { environment };
      const challenge = await dashboard("/v1/dashboard/sign-in/options", { body: {}, ...named });
      return dashboard("/v1/dashboard/sign-in", {
        body: {
          challenge_id: challenge.body.challenge_id,
          credential: holder.assert(challenge.body.options),
        },
        ...named,
      });
    };
    const inTest = await signIn();
    expect(inTest.body.error?.code).toBe("passkey_not_recognized");
    const signedIn = await signIn("live");
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201);
    const session = signedIn.cookie as string;
    expect(session).toMatch(/^sess_live_/);
    expect(signedIn.body).toMatchObject({ environment: "live", account: { handle: "@livepayer" } });
    // The live session reads its live account, with the header or by its cookie alone.
    for (const environment of ["live", undefined]) {
      const me = await dashboard("/v1/accounts/me", {
        cookie: session,
        ...(environment ? { environment } : {}),
      });
      expect(me.status).toBe(200);
      expect(me.body.handle).toBe("@livepayer");
    }
    expect(rowsOf(testDb, "SELECT id FROM sessions")).toHaveLength(0);
    expect(rowsOf(liveDb, "SELECT id FROM sessions")).toHaveLength(2);
  });

  it("refuses to start with the live environment on a database of the test cluster", async () => {
    await api.stop();
    const swapped = apiProcess({
      ...api.env,
      DATABASE_URL: join(dir, "fresh.sqlite"),
      LIVE_DATABASE_URL: testDb,
    });
    // The test cluster's genesis: the live environment's cluster is another one.
    await expect(swapped.start()).rejects.toThrow(
      `${testDb} (LIVE_DATABASE_URL) belongs to the chain with genesis ${localnetManifestOf(testnet).genesisHash}`,
    );
  });
});
