/**
 * The dashboard's sign-in and sessions over HTTP, with a software authenticator
 * (support/soft-authenticator.ts): enrolment through a one-time link, discoverable sign-in, the
 * session cookie and its CSRF header, idle expiry (on the service's clock, moved forward here),
 * sign-out and sign-out everywhere, passkey revocation, forged and replayed assertions, the wrapped
 * secret, `/v1/keys` for sessions only (and a key for one of the account's agents), a session
 * reaching `/v1/transfers`, the admin CLI's `accounts enroll-link`, and the failed-sign-in limit per
 * client address, which never refuses a good passkey or session (last: it spends the address's
 * budget). One world.
 */

import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { issueEnrollmentLink } from "@cpay/api";
import type { Database, Db } from "@cpay/ledger/database";
import { newId } from "@cpay/ledger/ids";
import type { TSessionView } from "@cpay/sdk/api";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { usdg } from "../support/api-world";
import { createSoftAuthenticator, type SoftAuthenticator } from "../support/soft-authenticator";
import { SMALL_POLICY } from "./support/agents";

const ORIGIN = "http://localhost:5173";
const IDLE_MINUTES = 5;
const FAILED_AUTH_LIMIT = 30;
const ADMIN_TOKEN = randomBytes(32).toString("hex");
const ROOT = resolve(import.meta.dirname, "../..");

interface Session {
  readonly cookie: string;
  readonly csrf: string;
  readonly view: TSessionView;
}

interface Answer {
  readonly status: number;
  readonly body: { error?: { code: string }; [field: string]: unknown };
  readonly response: Response;
}

describe("dashboard sign-in and sessions", () => {
  /** Added to the real time of the service's clock: the suite moves it forward, never back. */
  let offsetMs = 0;
  /** Set: the service's clock stands still there (the failed-sign-in test's minute). */
  let frozenAt: number | null = null;
  const advance = (minutes: number) => {
    offsetMs += minutes * 60_000;
  };
  const given = apiSuite({
    world: {
      env: {
        DASHBOARD_ORIGIN: ORIGIN,
        SESSION_IDLE_MINUTES: String(IDLE_MINUTES),
        AUTH_FAILURE_LIMIT_PER_MINUTE: String(FAILED_AUTH_LIMIT),
        ADMIN_PORT: "0",
        ADMIN_TOKEN,
      },
      clock: () => frozenAt ?? Date.now() + offsetMs,
      admin: true,
    },
    accounts: ["alice", "bob"],
    funds: { alice: { public: usdg(5) } },
    setUp: async ({ world, alice }) => {
      const agent = await alice.client.call("createAgent", {
        body: { name: "bot", spend_policy: SMALL_POLICY },
      });
      return {
        agentHandle: agent.handle,
        agentKey: await world.keyFor(agent.account_id),
        laptop: createSoftAuthenticator({ origin: ORIGIN }),
        phone: createSoftAuthenticator({ origin: ORIGIN }),
      };
    },
  });

  /** The challenge binding the suite's browser holds (set by the options steps, sent back as a browser does). */
  let challengeBinding: string | null = null;

  async function call(
    path: string,
    init: {
      method?: string;
      body?: unknown;
      session?: Session;
      csrf?: string | null;
      key?: string;
      idempotencyKey?: string;
      environment?: string;
    } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (init.idempotencyKey !== undefined) headers["idempotency-key"] = init.idempotencyKey;
    if (init.environment !== undefined) headers["x-cpay-environment"] = init.environment;
    const cookies = ["theme=dark"];
    if (init.session !== undefined) cookies.push(`cpay_session=${init.session.cookie}`);
    if (challengeBinding !== null) cookies.push(`cpay_challenge=${challengeBinding}`);
    headers.cookie = cookies.join("; ");
    const csrf = init.csrf === undefined ? init.session?.csrf : init.csrf;
    if (csrf !== undefined && csrf !== null) headers["x-csrf-token"] = csrf;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const response = await given.world.fetch(path, {
      method: init.method ?? "GET",
      headers,
      ...(init.key === undefined ? {} : { key: init.key }),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const binding = /^cpay_challenge=([A-Za-z0-9_-]+);/m.exec(response.headers.getSetCookie().join("\n"));
    if (binding !== null) challengeBinding = binding[1] as string;
    const text = await response.text();
    return { status: response.status, body: text === "" ? {} : JSON.parse(text), response };
  }

  const tokenOf = (link: string) => /#token=(enr_test_[A-Za-z0-9_-]{43})$/.exec(link)?.[1] as string;

  /** The session a sign-in or enrolment answer started. */
  function sessionOf(answer: Answer): Session {
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const setCookie = answer.response.headers.getSetCookie().join("\n");
    const cookie = /cpay_session=(sess_test_[A-Za-z0-9_-]{43});/.exec(setCookie)?.[1] as string;
    expect(cookie).toBeDefined();
    const view = answer.body as unknown as TSessionView;
    return { cookie, csrf: view.csrf_token, view };
  }

  async function enrol(authenticator: SoftAuthenticator, token: string, name: string): Promise<Session> {
    const begun = await call("/v1/dashboard/enrollment/options", { method: "POST", body: { token } });
    expect(begun.status).toBe(200);
    const credential = authenticator.register(begun.body.options);
    return sessionOf(
      await call("/v1/dashboard/enrollment", {
        method: "POST",
        body: { token, credential, passkey_name: name },
      }),
    );
  }

  async function signInAnswer(authenticator: SoftAuthenticator, forgery = {}) {
    const begun = await call("/v1/dashboard/sign-in/options", { method: "POST", body: {} });
    expect(begun.status).toBe(200);
    const credential = authenticator.assert(begun.body.options, forgery);
    const challenge_id = begun.body.challenge_id as string;
    const answer = await call("/v1/dashboard/sign-in", {
      method: "POST",
      body: { challenge_id, credential },
    });
    return { answer, challenge_id, credential, options: begun.body.options };
  }
  const signIn = async (authenticator: SoftAuthenticator) =>
    sessionOf((await signInAnswer(authenticator)).answer);

  /** Rows as stored, read by `select`. */
  const rowsOf = <Row>(select: (q: Db, tables: Database["tables"]) => Promise<Row[]>) => {
    const { db } = given.world.service.context;
    return db.read((q) => select(q, db.tables));
  };
  const sessionRows = () => rowsOf((q, { sessions }) => q.select().from(sessions));
  const enrollmentRows = () => rowsOf((q, { enrollmentTokens }) => q.select().from(enrollmentTokens));
  const challengeRows = () => rowsOf((q, { webauthnChallenges }) => q.select().from(webauthnChallenges));
  const passkeyRows = () => rowsOf((q, { passkeys }) => q.select().from(passkeys));

  it("refuses an expired enrollment link", async () => {
    const { link } = await issueEnrollmentLink(given.world.service.context, given.bob.account);
    advance(24 * 60 + 1);
    const answer = await call("/v1/dashboard/enrollment/options", {
      method: "POST",
      body: { token: tokenOf(link) },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error?.code).toBe("enrollment_link_invalid");
  });

  let first: Session;
  it("enrols a passkey through a one-time link, sets an HttpOnly SameSite=Strict cookie and stores only hashes", async () => {
    const { link } = await issueEnrollmentLink(given.world.service.context, given.alice.account);
    expect(link.startsWith(`${ORIGIN}/enroll#token=enr_test_`)).toBe(true);
    const token = tokenOf(link);
    const begun = await call("/v1/dashboard/enrollment/options", { method: "POST", body: { token } });
    expect(begun.body.handle).toBe("@alice");
    const options = begun.body.options as {
      rp: { id: string };
      authenticatorSelection: { residentKey: string; userVerification: string };
    };
    expect(options.rp.id).toBe("localhost");
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    // A registration from another origin is refused and spends nothing.
    const forged = await call("/v1/dashboard/enrollment", {
      method: "POST",
      body: {
        token,
        credential: given.laptop.register(begun.body.options, { origin: "https://evil.example" }),
      },
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error?.code).toBe("passkey_verification_failed");
    const answer = await call("/v1/dashboard/enrollment", {
      method: "POST",
      body: { token, credential: given.laptop.register(begun.body.options), passkey_name: "laptop" },
    });
    first = sessionOf(answer);
    const setCookie = answer.response.headers.getSetCookie()[0] as string;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // an http origin
    expect(first.view).toMatchObject({
      environment: "test",
      account: { account_id: given.alice.account.id, handle: "@alice", type: "personal" },
      passkey: { name: "laptop" },
      wrapped_secret: null,
    });
    // The link is spent.
    const again = await call("/v1/dashboard/enrollment/options", { method: "POST", body: { token } });
    expect(again.body.error?.code).toBe("enrollment_link_invalid");
    // No row holds the cookie, the CSRF token or the link's token.
    const stored = JSON.stringify([await sessionRows(), await enrollmentRows(), await passkeyRows()]);
    for (const secret of [first.cookie, first.csrf, token, token.slice(4)])
      expect(stored).not.toContain(secret);
  });

  it("signs in with the discoverable passkey and shows the session", async () => {
    const begun = await call("/v1/dashboard/sign-in/options", { method: "POST", body: {} });
    const options = begun.body.options as {
      rpId: string;
      userVerification: string;
      allowCredentials?: unknown[];
    };
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(options.allowCredentials ?? []).toEqual([]);
    const session = await signIn(given.laptop);
    const view = await call("/v1/dashboard/session", { session, csrf: null });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ account: { handle: "@alice" }, csrf_token: session.csrf });
    expect(view.response.headers.get("cache-control")).toBe("no-store");
    const passkeys = await call("/v1/dashboard/passkeys", { session });
    expect((passkeys.body.passkeys as { name: string }[]).map((p) => p.name)).toEqual(["laptop"]);
  });

  it("refuses a cookie request without the CSRF header, changing nothing", async () => {
    const before = await call("/v1/keys", { session: first });
    const sessionsBefore = await sessionRows();
    for (const csrf of [null, "wrong", `${first.csrf}x`]) {
      const refused = await call("/v1/keys", {
        method: "POST",
        body: { name: "sneaky" },
        session: first,
        csrf,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe("csrf_token_invalid");
    }
    // Not even the session's last use moved.
    expect(await sessionRows()).toEqual(sessionsBefore);
    // No key was made or revoked. Usage columns are left out: a key's request count is written up
    // to a second late (api/src/http/usage-stamps.ts), so the setup's own requests may land between.
    const keyRows = (keys: unknown) =>
      (keys as { id: string; name: string; revoked_at: string | null }[]).map(({ id, name, revoked_at }) => ({
        id,
        name,
        revoked_at,
      }));
    const after = await call("/v1/keys", { session: first });
    expect(keyRows(after.body.keys)).toEqual(keyRows(before.body.keys));
    expect(keyRows(after.body.keys).length).toBeGreaterThan(0);
  });

  it("keeps /v1/keys for sessions: an owner's or an agent's API key gets 403 session_required", async () => {
    for (const key of [given.alice.key.value, given.agentKey]) {
      const answer = await call("/v1/keys", { key });
      expect(answer.status).toBe(403);
      expect(answer.body.error?.code).toBe("session_required");
    }
    // An Authorization header is judged alone, even beside a live session cookie.
    const both = await call("/v1/keys", { key: given.alice.key.value, session: first });
    expect(both.body.error?.code).toBe("session_required");
    const badKey = await call("/v1/keys", { key: `svc_test_${"A".repeat(43)}`, session: first });
    expect(badKey.status).toBe(401);
    // No credential at all.
    expect((await call("/v1/dashboard/session")).body.error?.code).toBe("unauthorized");
  });

  it("lets a session list transfers and send one with its CSRF token", async () => {
    const created = await call("/v1/transfers", {
      method: "POST",
      body: { to: "@bob", amount: "1", confidential: false },
      session: first,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const transferId = created.body.transfer_id as string;
    expect((await given.world.transferRow(transferId)).apiKeyId).toBeNull();
    const list = await call("/v1/transfers", { session: first });
    expect((list.body.transfers as { transfer_id: string }[]).map((t) => t.transfer_id)).toContain(
      transferId,
    );
  });

  it("creates, lists and revokes keys; the key works until revoked", async () => {
    const created = await call("/v1/keys", { method: "POST", body: { name: "ci" }, session: first });
    expect(created.status).toBe(201);
    const apiKey = created.body.api_key as string;
    const keyId = (created.body.key as { id: string }).id;
    expect(apiKey).toMatch(/^svc_test_[A-Za-z0-9_-]{43}$/);
    expect((await call("/v1/accounts/me", { key: apiKey })).status).toBe(200);
    const listed = await call("/v1/keys", { session: first });
    const keys = listed.body.keys as { id: string; name: string; display: string }[];
    expect(keys.find((key) => key.id === keyId)).toMatchObject({
      name: "ci",
      display: `svc_test_...${apiKey.slice(-4)}`,
    });
    expect(JSON.stringify(listed.body)).not.toContain(apiKey);
    // Another account's key is not there to revoke.
    const foreign = await call(`/v1/keys/${given.bob.key.id}`, { method: "DELETE", session: first });
    expect(foreign.body.error?.code).toBe("key_not_found");
    expect((await call("/v1/accounts/me", { key: given.bob.key.value })).status).toBe(200);
    const revoked = await call(`/v1/keys/${keyId}`, { method: "DELETE", session: first });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await call("/v1/accounts/me", { key: apiKey });
    expect(after.status).toBe(401);
    expect(after.body.error?.code).toBe("unauthorized");
  });

  it("Given one of the account's agents, When a session creates a key for it, Then the key is the agent's own; another owner's agent is 403 and a non-agent 404, making no key", async () => {
    const agents = (await call("/v1/accounts/me/agents", { session: first })).body.agents as {
      account_id: string;
      handle: string;
    }[];
    const bot = agents.find((agent) => agent.handle === given.agentHandle) as { account_id: string };
    const created = await call("/v1/keys", {
      method: "POST",
      body: { name: "mcp host", account_id: bot.account_id },
      session: first,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const apiKey = created.body.api_key as string;
    expect(apiKey).toMatch(/^svc_test_[A-Za-z0-9_-]{43}$/);
    const me = await call("/v1/accounts/me", { key: apiKey });
    expect(me.body.handle).toBe(given.agentHandle);
    // It is the agent's, not among the account's own keys.
    const own = (await call("/v1/keys", { session: first })).body.keys as { id: string }[];
    expect(own.map((key) => key.id)).not.toContain((created.body.key as { id: string }).id);

    const bobsAgent = await given.bob.client.call("createAgent", {
      body: {
        name: "helper",
        spend_policy: {
          daily_limit_usdg: 1,
          per_transaction_limit_usdg: 1,
          hitl_threshold_usdg: 1,
          assets: ["USDG"],
        },
      },
    });
    const keysBefore = await given.world.service.context.db.read((db) =>
      db.select().from(given.world.service.context.db.tables.apiKeys),
    );
    for (const [accountId, status, code] of [
      [bobsAgent.account_id, 403, "not_agent_owner"],
      [given.alice.account.id, 404, "agent_not_found"],
      [given.bob.account.id, 404, "agent_not_found"],
    ] as const) {
      const refused = await call("/v1/keys", {
        method: "POST",
        body: { name: "sneaky", account_id: accountId },
        session: first,
      });
      expect(refused.status, accountId).toBe(status);
      expect(refused.body.error?.code).toBe(code);
    }
    const malformed = await call("/v1/keys", {
      method: "POST",
      body: { name: "sneaky", account_id: "agent-bot" },
      session: first,
    });
    expect(malformed.status).toBe(400);
    expect((malformed.body.error as { param?: string } | undefined)?.param).toBe("account_id");
    const keysAfter = await given.world.service.context.db.read((db) =>
      db.select().from(given.world.service.context.db.tables.apiKeys),
    );
    expect(keysAfter).toEqual(keysBefore);
  });

  it("Given a key created with an Idempotency-Key, Then the claim names that key from the transaction that made it, and a repeat replays it without its value", async () => {
    const idempotencyKey = `key-${randomBytes(6).toString("hex")}`;
    const post = () =>
      call("/v1/keys", { method: "POST", body: { name: "deploy" }, session: first, idempotencyKey });
    const created = await post();
    expect(created.status).toBe(201);
    const keyId = (created.body.key as { id: string }).id;
    // A crash after the key's row and before the answer is stored leaves a claim that says which key
    // it made, so the retry can discard that unseen key instead of leaving a second one beside it.
    const { idempotencyKeys } = given.world.service.context.db.tables;
    const [claim] = await given.world.service.context.db.read((db) =>
      db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, idempotencyKey)),
    );
    expect(claim?.resourceId).toBe(keyId);
    const replayed = await post();
    expect(replayed.status).toBe(201);
    expect(replayed.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toMatchObject({
      key: { id: keyId },
      api_key: null,
      secret_already_delivered: true,
    });
    const named = ((await call("/v1/keys", { session: first })).body.keys as { name: string }[]).filter(
      (key) => key.name === "deploy",
    );
    expect(named).toHaveLength(1);
  });

  let phoneSession: Session;
  it("stores a wrapped secret per passkey and returns it only to that passkey's sessions", async () => {
    const { link } = await issueEnrollmentLink(given.world.service.context, given.alice.account);
    phoneSession = await enrol(given.phone, tokenOf(link), "phone");
    const blob = randomBytes(100).toString("base64");
    const put = await call(`/v1/dashboard/passkeys/${first.view.passkey.passkey_id}/wrapped-secret`, {
      method: "PUT",
      body: { wrapped_secret: blob },
      session: first,
    });
    expect(put.status).toBe(200);
    expect(put.body.wrapped_secret).toBe(blob);
    // Every session of the laptop's passkey reads it; the phone's sessions never do.
    const laptopAgain = await signIn(given.laptop);
    expect(laptopAgain.view.wrapped_secret).toBe(blob);
    expect((await call("/v1/dashboard/session", { session: first })).body.wrapped_secret).toBe(blob);
    expect((await call("/v1/dashboard/session", { session: phoneSession })).body.wrapped_secret).toBeNull();
    // A session sets only its own passkey's blob; an oversized blob is refused.
    const other = await call(`/v1/dashboard/passkeys/${first.view.passkey.passkey_id}/wrapped-secret`, {
      method: "PUT",
      body: { wrapped_secret: null },
      session: phoneSession,
    });
    expect(other.body.error?.code).toBe("passkey_not_found");
    const oversized = await call(
      `/v1/dashboard/passkeys/${phoneSession.view.passkey.passkey_id}/wrapped-secret`,
      {
        method: "PUT",
        body: { wrapped_secret: randomBytes(513).toString("base64") },
        session: phoneSession,
      },
    );
    expect(oversized.body.error?.code).toBe("invalid_request");
    expect((await call("/v1/dashboard/session", { session: first })).body.wrapped_secret).toBe(blob);
  });

  it("ends a session left idle, and keeps one in use alive", async () => {
    const used = await signIn(given.laptop);
    const idle = await signIn(given.laptop);
    advance(IDLE_MINUTES - 2);
    expect((await call("/v1/dashboard/session", { session: used })).status).toBe(200);
    advance(3);
    expect((await call("/v1/dashboard/session", { session: used })).status).toBe(200);
    const expired = await call("/v1/dashboard/session", { session: idle });
    expect(expired.status).toBe(401);
    expect(expired.body.error?.code).toBe("session_expired");
    advance(IDLE_MINUTES + 1);
    expect((await call("/v1/dashboard/session", { session: used })).body.error?.code).toBe("session_expired");
  });

  it("signs out one session, then every session of the account", async () => {
    const one = await signIn(given.laptop);
    const two = await signIn(given.laptop);
    const three = await signIn(given.phone);
    const out = await call("/v1/dashboard/session", { method: "DELETE", session: one });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ signed_out: true });
    expect(out.response.headers.getSetCookie()[0]).toMatch(/^cpay_session=; .*Max-Age=0/);
    expect((await call("/v1/dashboard/session", { session: one })).body.error?.code).toBe("session_expired");
    expect((await call("/v1/dashboard/session", { session: two })).status).toBe(200);
    const everywhere = await call("/v1/dashboard/sign-out-everywhere", { method: "POST", session: two });
    expect(everywhere.body).toEqual({ signed_out: 2 });
    for (const session of [two, three]) {
      expect((await call("/v1/dashboard/session", { session })).body.error?.code).toBe("session_expired");
    }
  });

  it("refuses a wrong origin, challenge or RP ID, no user verification and an unknown passkey with one answer, the detail only in the log, changing nothing", async () => {
    const counterOf = async () =>
      (await passkeyRows()).find((row) => row.credentialId === given.phone.credentialId)?.counter;
    const before = await counterOf();
    const logsBefore = given.world.logs.length;
    const stranger = createSoftAuthenticator({ origin: ORIGIN });
    const attempts: [SoftAuthenticator, Record<string, unknown>][] = [
      [given.phone, { origin: "https://evil.example" }],
      [given.phone, { challenge: randomBytes(32).toString("base64url") }],
      [given.phone, { flags: 0x01 }],
      [given.phone, { rpId: "evil.example" }],
      [stranger, {}],
    ];
    const answers: unknown[] = [];
    for (const [authenticator, forgery] of attempts) {
      const { answer } = await signInAnswer(authenticator, forgery);
      const { request_id: _id, ...error } = answer.body.error as unknown as { request_id: string };
      answers.push({ status: answer.status, error });
    }
    // One answer, whether the passkey is registered here (its assertion failing) or unknown ...
    expect(answers[0]).toMatchObject({ status: 401, error: { code: "passkey_not_recognized" } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // ... that quotes none of the verifier's detail, which goes to the log instead.
    const message = (answers[0] as { error: { message: string } }).error.message;
    for (const detail of [
      "evil.example",
      "origin",
      "expected",
      "challenge",
      "rpID",
      "RP ID",
      "flag",
      "verification",
    ]) {
      expect(message).not.toContain(detail);
    }
    const logged = given.world.logs.slice(logsBefore).join("\n");
    expect(logged).toContain("sign-in or enrollment refused");
    expect(logged).toContain("evil.example");
    expect(await counterOf()).toBe(before);
    // A good assertion, then the same one again: its challenge is spent.
    const good = await signInAnswer(given.phone);
    sessionOf(good.answer);
    const replayed = await call("/v1/dashboard/sign-in", {
      method: "POST",
      body: { challenge_id: good.challenge_id, credential: good.credential },
    });
    expect(replayed.body.error?.code).toBe("passkey_verification_failed");
    // ... and under a fresh challenge it signs the old one: the passkey's answer does not verify.
    const fresh = await call("/v1/dashboard/sign-in/options", { method: "POST", body: {} });
    const moved = await call("/v1/dashboard/sign-in", {
      method: "POST",
      body: { challenge_id: fresh.body.challenge_id, credential: good.credential },
    });
    expect(moved.body.error?.code).toBe("passkey_not_recognized");
    // A PRF output never reaches the service.
    const prf = await call("/v1/dashboard/sign-in", {
      method: "POST",
      body: {
        challenge_id: fresh.body.challenge_id,
        credential: { ...good.credential, clientExtensionResults: { prf: { results: { first: "AAAA" } } } },
      },
    });
    expect(prf.body.error?.code).toBe("invalid_request");
  });

  it("revoking a passkey ends its sessions and it can no longer sign in", async () => {
    const onLaptop = await signIn(given.laptop);
    expect(onLaptop.view.wrapped_secret).toEqual(expect.any(String));
    const onPhone = await signIn(given.phone);
    const revoked = await call(`/v1/dashboard/passkeys/${onLaptop.view.passkey.passkey_id}`, {
      method: "DELETE",
      session: onPhone,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    // The secret wrapped under the revoked passkey is erased from its row (and so from later backups).
    const row = (await passkeyRows()).find((passkey) => passkey.id === onLaptop.view.passkey.passkey_id);
    expect(row?.revokedAt).toEqual(expect.any(String));
    expect(row?.wrappedSecret).toBeNull();
    expect((await call("/v1/dashboard/session", { session: onLaptop })).body.error?.code).toBe(
      "session_expired",
    );
    expect((await signInAnswer(given.laptop)).answer.body.error?.code).toBe("passkey_not_recognized");
    expect((await call("/v1/dashboard/session", { session: onPhone })).status).toBe(200);
    const listed = await call("/v1/dashboard/passkeys", { session: onPhone });
    expect((listed.body.passkeys as { name: string }[]).map((p) => p.name)).toEqual(["phone"]);
  });

  it("refuses X-Cpay-Environment: live without a live environment (403), a bad value (400) and a live link, changing nothing", async () => {
    const { link } = await issueEnrollmentLink(given.world.service.context, given.bob.account);
    const token = tokenOf(link);
    const session = await signIn(given.phone);
    const challengesBefore = await challengeRows();
    const enrollmentsBefore = await enrollmentRows();
    const sessionsBefore = await sessionRows();
    const refusals = [
      ["/v1/dashboard/enrollment/options", { method: "POST", body: { token } }],
      ["/v1/dashboard/sign-in/options", { method: "POST", body: {} }],
      ["/v1/dashboard/session", { session }],
      ["/v1/dashboard/sign-out-everywhere", { method: "POST", session }],
    ] as const;
    for (const [path, init] of refusals) {
      const live = await call(path, { ...init, environment: "live" });
      expect(live.status, path).toBe(403);
      expect(live.body.error?.code).toBe("live_mode_unavailable");
      for (const bad of ["LIVE", "prod", ""]) {
        const answer = await call(path, { ...init, environment: bad });
        expect(answer.status, `${path} ${bad}`).toBe(400);
        expect(answer.body.error).toMatchObject({ code: "invalid_request", param: "x-cpay-environment" });
      }
    }
    // A live environment's link is never looked up here, with or without the header.
    const liveToken = `enr_live_${token.slice("enr_test_".length)}`;
    for (const environment of [undefined, "test"]) {
      const answer = await call("/v1/dashboard/enrollment/options", {
        method: "POST",
        body: { token: liveToken },
        ...(environment === undefined ? {} : { environment }),
      });
      expect(answer.body.error?.code).toBe("enrollment_link_invalid");
    }
    expect(await challengeRows()).toEqual(challengesBefore);
    expect(await enrollmentRows()).toEqual(enrollmentsBefore);
    expect(await sessionRows()).toEqual(sessionsBefore);
    // The test environment named as such: the link and the session answer.
    const begun = await call("/v1/dashboard/enrollment/options", {
      method: "POST",
      body: { token },
      environment: "test",
    });
    expect(begun.body.handle).toBe("@bob");
    const view = await call("/v1/dashboard/session", { session, environment: "test" });
    expect(view.body).toMatchObject({ environment: "test", account: { handle: "@alice" } });
  });

  it("honours an enrollment link of the old form (no environment in its token) in the test environment", async () => {
    // Links issued before tokens named their environment stay valid for their 24 h.
    const token = `enr_${randomBytes(32).toString("base64url")}`;
    const { db } = given.world.service.context;
    const now = Date.now() + offsetMs;
    await db.transaction((tx) =>
      tx.insert(db.tables.enrollmentTokens).values({
        id: newId("enr"),
        accountId: given.bob.account.id,
        tokenHash: createHash("sha256").update(token, "utf8").digest("hex"),
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 3_600_000).toISOString(),
      }),
    );
    const session = await enrol(createSoftAuthenticator({ origin: ORIGIN }), token, "old link");
    expect(session.view).toMatchObject({ environment: "test", account: { handle: "@bob" } });
  });

  // Two CLI processes (tsx starts in ~3 s on an idle machine; a loaded one takes far longer).
  it("prints a new enrollment link from the admin CLI (earlier links stop working); agents get none", {
    timeout: 180_000,
  }, async () => {
    const earlier = await issueEnrollmentLink(given.world.service.context, given.bob.account);
    const adminUrl = given.world.service.admin?.url as string;
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(
          join(ROOT, "node_modules/.bin/tsx"),
          [join(ROOT, "tools/src/admin-cli/main.ts"), ...args],
          { cwd: ROOT, env: { ...process.env, CPAY_ADMIN_URL: adminUrl, ADMIN_TOKEN }, timeout: 90_000 },
          (error, stdout, stderr) =>
            done({
              code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
              stdout,
              stderr,
            }),
        );
      });
    const [issued, agent] = await Promise.all([
      run(["accounts", "enroll-link", "@bob"]),
      run(["accounts", "enroll-link", given.agentHandle]),
    ]);
    expect(issued.code, issued.stderr).toBe(0);
    const link = /(http:\/\/localhost:5173\/enroll#token=enr_test_[A-Za-z0-9_-]{43})\n/.exec(
      issued.stdout,
    )?.[1];
    expect(link).toBeDefined();
    const fresh = await call("/v1/dashboard/enrollment/options", {
      method: "POST",
      body: { token: tokenOf(link as string) },
    });
    expect(fresh.body.handle).toBe("@bob");
    const old = await call("/v1/dashboard/enrollment/options", {
      method: "POST",
      body: { token: tokenOf(earlier.link) },
    });
    expect(old.body.error?.code).toBe("enrollment_link_invalid");
    expect(agent.code).toBe(1);
    expect(agent.stderr).toMatch(/agents never sign in/);
    // Creating an account hands its enrollment link out with its secret.
    const created = await fetch(`${adminUrl}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ handle: "carol", type: "personal", kyc_status: "verified" }),
    });
    const body = (await created.json()) as { enrollment_link: string };
    expect(body.enrollment_link).toMatch(
      /^http:\/\/localhost:5173\/enroll#token=enr_test_[A-Za-z0-9_-]{43}$/,
    );
  });

  it("limits failed sign-ins per client address, yet never refuses a good passkey or session: past the limit only failures are 429", async () => {
    // A minute the suite holds still (a fresh failed-authentication window, never ending mid-test).
    frozenAt = Date.now() + offsetMs + 2 * 60_000;
    const stranger = createSoftAuthenticator({ origin: ORIGIN });
    for (let attempt = 1; attempt <= FAILED_AUTH_LIMIT; attempt++) {
      const { answer } = await signInAnswer(stranger);
      expect(answer.status, `attempt ${attempt}`).toBe(401);
      expect(answer.body.error?.code).toBe("passkey_not_recognized");
    }
    // Past the limit a failing passkey, and a made-up session cookie, are 429 with Retry-After ...
    const limited = (await signInAnswer(stranger)).answer;
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe("rate_limited");
    expect(Number(limited.response.headers.get("retry-after"))).toBe(60);
    const madeUp = { cookie: `sess_test_${"A".repeat(43)}`, csrf: "", view: first.view };
    expect((await call("/v1/dashboard/session", { session: madeUp })).status).toBe(429);
    // ... while the options step is served, a good passkey signs in and its session is served.
    const session = await signIn(given.phone);
    expect((await call("/v1/dashboard/session", { session })).status).toBe(200);
    expect((await call("/v1/keys", { method: "POST", body: { name: "after" }, session })).status).toBe(201);
  });
});
