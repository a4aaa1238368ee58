/**
 * The dashboard's sign-in and sessions against pages of other sites (a login CSRF an outside review
 * found: a cross-site `text/plain` form post of the attacker's own assertion signed the victim's
 * browser in to the attacker's account). Three defences, each tested on its own: a body is read only
 * as `application/json` (anything else is `415`), a browser request from another site than the
 * dashboard's origin (its `Origin`, else its `Sec-Fetch-Site`) is `403 cross_site_request` on the
 * sign-in and enrollment steps and with the session cookie, and each WebAuthn challenge is bound to
 * the browser that asked for it (a short-lived cookie). Every refusal sets no cookie and changes
 * nothing; an API key's requests are not a browser's and are judged by the key alone. One world,
 * the dashboard at http://localhost:5173.
 */
import { request as httpRequest } from "node:http";
import { issueEnrollmentLink } from "@cpay/api";
import { API_ROUTES, type ApiRouteId, type RouteContract } from "@cpay/sdk/api";
import { beforeAll, describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import type { WorldAccount } from "../support/api-world";
import {
  type BrowserAnswer,
  cookieAttributes,
  createDashboardBrowser,
  type DashboardBrowser,
} from "../support/dashboard-browser";
import { createSoftAuthenticator, type SoftAuthenticator } from "../support/soft-authenticator";

const ORIGIN = "http://localhost:5173";
const EVIL = "http://evil.example";

/** Headers a page of another site (or a sandboxed one) sends; each is refused on its own. */
const CROSS_SITE: readonly [string, Readonly<Record<string, string | null>>][] = [
  ["another site's Origin", { origin: EVIL, "sec-fetch-site": "cross-site" }],
  ["another site's Origin without Sec-Fetch-Site", { origin: EVIL, "sec-fetch-site": null }],
  ["an opaque Origin (null)", { origin: "null", "sec-fetch-site": null }],
  ["another port's Origin", { origin: "http://localhost:5174", "sec-fetch-site": "same-site" }],
  ["no Origin and Sec-Fetch-Site cross-site", { origin: null, "sec-fetch-site": "cross-site" }],
  ["no Origin and Sec-Fetch-Site same-site", { origin: null, "sec-fetch-site": "same-site" }],
];

describe("the dashboard against cross-site requests", () => {
  const given = apiSuite({ world: { env: { DASHBOARD_ORIGIN: ORIGIN } }, accounts: ["alice", "mallory"] });
  let alicePasskey: SoftAuthenticator;
  let malloryPasskey: SoftAuthenticator;

  /** A browser on the dashboard's own pages. */
  const honestBrowser = () => createDashboardBrowser({ apiUrl: given.world.url, origin: ORIGIN });
  /** A browser on a page of another site, posting to the API (it holds none of the service's cookies). */
  const victimOnEvilPage = () => createDashboardBrowser({ apiUrl: given.world.url, origin: EVIL });

  const tokenOf = (link: string) => /#token=(enr_test_[A-Za-z0-9_-]{43})$/.exec(link)?.[1] as string;

  /** The options and the registration a browser makes for a fresh enrollment link of `account`. */
  async function enrollmentSteps(
    browser: DashboardBrowser,
    account: WorldAccount,
    passkey: SoftAuthenticator,
  ) {
    const token = tokenOf((await issueEnrollmentLink(given.world.service.context, account.account)).link);
    const begun = await browser.call("/v1/dashboard/enrollment/options", { body: { token } });
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    return { token, begun, body: { token, credential: passkey.register(begun.body.options) } };
  }

  /** The options and the assertion a browser makes for a sign-in. */
  async function signInSteps(browser: DashboardBrowser, passkey: SoftAuthenticator) {
    const begun = await browser.call("/v1/dashboard/sign-in/options", { body: {} });
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    return {
      begun,
      body: {
        challenge_id: begun.body.challenge_id as string,
        credential: passkey.assert(begun.body.options),
      },
    };
  }

  async function signedIn(browser: DashboardBrowser, passkey: SoftAuthenticator): Promise<string> {
    const { body } = await signInSteps(browser, passkey);
    const answer = await browser.call("/v1/dashboard/sign-in", { body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.csrf_token as string;
  }

  /** Every dashboard row, and the API keys without their usage (written up to a second late). */
  async function rows() {
    const { db } = given.world.service.context;
    const { sessions, webauthnChallenges, passkeys, enrollmentTokens, apiKeys } = db.tables;
    return {
      sessions: await db.read((q) => q.select().from(sessions)),
      challenges: await db.read((q) => q.select().from(webauthnChallenges)),
      passkeys: await db.read((q) => q.select().from(passkeys)),
      enrollments: await db.read((q) => q.select().from(enrollmentTokens)),
      keys: await db.read((q) => q.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys)),
    };
  }

  function expectRefused(answer: BrowserAnswer, status: number, code: string, what?: string): void {
    expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(status);
    expect(answer.body.error?.code, what).toBe(code);
    expect(answer.setCookies, what).toEqual([]);
  }

  /**
   * A page of another site posts the attacker's own good step `body` to `path` as text/plain: 415
   * with no cookie and nothing changed, while the attacker's own browser still redeems it.
   */
  async function expectTextPlainRefused(attacker: DashboardBrowser, path: string, body: unknown) {
    const before = await rows();
    const answer = await victimOnEvilPage().call(path, {
      rawBody: JSON.stringify(body),
      headers: { "content-type": "text/plain", "sec-fetch-site": "cross-site" },
    });
    expectRefused(answer, 415, "unsupported_media_type");
    expect(await rows()).toEqual(before);
    expect((await attacker.call(path, { body })).status).toBe(201);
  }

  beforeAll(async () => {
    alicePasskey = createSoftAuthenticator({ origin: ORIGIN });
    malloryPasskey = createSoftAuthenticator({ origin: ORIGIN });
    for (const [account, passkey] of [
      [given.alice, alicePasskey],
      [given.mallory, malloryPasskey],
    ] as const) {
      const browser = honestBrowser();
      const { body } = await enrollmentSteps(browser, account, passkey);
      const enrolled = await browser.call("/v1/dashboard/enrollment", { body });
      expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    }
  });

  it("Given the attacker's own good assertion, When a page of another site posts it as text/plain (the review's request), Then no cookie is set and nothing changes", async () => {
    const attacker = honestBrowser();
    const { body } = await signInSteps(attacker, malloryPasskey);
    // (The assertion is good: the attacker's own browser still redeems it.)
    await expectTextPlainRefused(attacker, "/v1/dashboard/sign-in", body);
  });

  it("Given the attacker's own good registration, When a page of another site posts it as text/plain to the enrollment step, Then no cookie is set and nothing changes", async () => {
    const attacker = honestBrowser();
    const { body } = await enrollmentSteps(
      attacker,
      given.mallory,
      createSoftAuthenticator({ origin: ORIGIN }),
    );
    await expectTextPlainRefused(attacker, "/v1/dashboard/enrollment", body);
  });

  it("refuses every sign-in and enrollment step as JSON from another site with 403 cross_site_request, setting no cookie and changing nothing", async () => {
    const attacker = honestBrowser();
    const signIn = await signInSteps(attacker, malloryPasskey);
    const enrollment = await enrollmentSteps(
      attacker,
      given.mallory,
      createSoftAuthenticator({ origin: ORIGIN }),
    );
    const steps = [
      ["/v1/dashboard/sign-in/options", {}],
      ["/v1/dashboard/sign-in", signIn.body],
      ["/v1/dashboard/enrollment/options", { token: enrollment.token }],
      ["/v1/dashboard/enrollment", enrollment.body],
    ] as const;
    const before = await rows();
    for (const [what, headers] of CROSS_SITE) {
      for (const [path, body] of steps) {
        const answer = await victimOnEvilPage().call(path, { body, headers });
        expectRefused(answer, 403, "cross_site_request", `${path} with ${what}`);
      }
    }
    expect(await rows()).toEqual(before);
  });

  it("binds each sign-in challenge to the browser that asked for it: another browser redeeming it is refused, changing nothing", async () => {
    const attacker = honestBrowser();
    const { begun, body } = await signInSteps(attacker, malloryPasskey);
    // The binding is a short-lived HttpOnly SameSite=Strict cookie (not Secure: the origin is http).
    const attributes = cookieAttributes(begun.setCookies, "cpay_challenge");
    expect(attributes).toEqual(
      expect.arrayContaining(["httponly", "samesite=strict", "path=/", "max-age=300"]),
    );
    expect(attributes).not.toContain("secure");
    const victim = honestBrowser();
    expect((await victim.call("/v1/dashboard/sign-in/options", { body: {} })).status).toBe(200);
    const before = await rows();

    // The victim's browser, on the dashboard's own page, posts the attacker's challenge and assertion:
    // with no binding cookie, then with the binding of its own challenge.
    for (const cookies of [false, true]) {
      const answer = await victim.call("/v1/dashboard/sign-in", { body, cookies });
      expectRefused(answer, 401, "passkey_verification_failed", `cookies: ${cookies}`);
    }

    expect(await rows()).toEqual(before);
    expect((await attacker.call("/v1/dashboard/sign-in", { body })).status).toBe(201);
  });

  it("binds each enrollment challenge to the browser that asked for it", async () => {
    const attacker = honestBrowser();
    const { begun, body } = await enrollmentSteps(
      attacker,
      given.mallory,
      createSoftAuthenticator({ origin: ORIGIN }),
    );
    expect(cookieAttributes(begun.setCookies, "cpay_challenge")).toContain("httponly");
    const victim = honestBrowser();
    await victim.call("/v1/dashboard/sign-in/options", { body: {} });
    const before = await rows();

    for (const cookies of [false, true]) {
      const answer = await victim.call("/v1/dashboard/enrollment", { body, cookies });
      expectRefused(answer, 401, "passkey_verification_failed", `cookies: ${cookies}`);
    }

    expect(await rows()).toEqual(before);
    expect((await attacker.call("/v1/dashboard/enrollment", { body })).status).toBe(201);
  });

  it("refuses a request with the session cookie from another site, changing nothing; the dashboard's own pages, navigations and clients that are not browsers pass", async () => {
    const browser = honestBrowser();
    const csrf = await signedIn(browser, alicePasskey);
    const allowed: Readonly<Record<string, string | null>>[] = [
      {},
      { origin: ORIGIN },
      { "sec-fetch-site": "none" },
      { "sec-fetch-site": null },
    ];
    for (const headers of allowed) {
      const answer = await browser.call("/v1/dashboard/session", { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
    }
    const before = await rows();
    for (const [what, headers] of CROSS_SITE) {
      expectRefused(
        await browser.call("/v1/dashboard/session", { headers }),
        403,
        "cross_site_request",
        what,
      );
      const created = await browser.call("/v1/keys", { body: { name: "planted" }, csrf, headers });
      expectRefused(created, 403, "cross_site_request", what);
      const out = await browser.call("/v1/dashboard/session", { method: "DELETE", csrf, headers });
      expectRefused(out, 403, "cross_site_request", what);
    }
    expect(await rows()).toEqual(before);
    // An API key is no browser's credential: it is judged alone, whatever Origin comes with it.
    const keyed = await given.world.fetch("/v1/accounts/me", {
      key: given.alice.key.value,
      headers: { origin: EVIL, "sec-fetch-site": "cross-site" },
    });
    expect(keyed.status).toBe(200);
  });

  const bodyRoutes = (Object.keys(API_ROUTES) as ApiRouteId[]).filter(
    (id) => (API_ROUTES[id] as RouteContract).body !== undefined,
  );

  /** `{}` to a body route as it is (node:http: fetch sends no GET body and adds a Content-Type of its own). */
  function sendBody(
    id: ApiRouteId,
    headers: Record<string, string>,
  ): Promise<{ status: number; text: string }> {
    const route: RouteContract = API_ROUTES[id];
    const url = new URL(route.path.replace(/:([a-z_]+)/g, "unknown"), given.world.url);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        url,
        {
          method: route.method.toUpperCase(),
          headers: { ...headers, authorization: `Bearer ${given.alice.key.value}`, "content-length": "2" },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () =>
            resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end("{}");
    });
  }

  it.each(bodyRoutes)(
    "reads the body of %s only as application/json: any other Content-Type, or none, is 415 and changes nothing",
    async (id) => {
      const before = await rows();
      for (const contentType of [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        undefined,
      ]) {
        const answer = await sendBody(id, contentType === undefined ? {} : { "content-type": contentType });
        expect(answer.status, `${id} ${contentType}: ${answer.text}`).toBe(415);
        expect(JSON.parse(answer.text).error).toMatchObject({
          code: "unsupported_media_type",
          param: "content-type",
        });
      }
      expect(await rows()).toEqual(before);
    },
  );

  it.each(bodyRoutes)(
    "still reads the body of %s as application/json, with or without charset=utf-8",
    async (id) => {
      for (const contentType of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
        const answer = await sendBody(id, {
          "content-type": contentType,
          "sec-fetch-site": "same-origin",
          origin: ORIGIN,
        });
        expect(answer.status, `${id} ${contentType}: ${answer.text}`).not.toBe(415);
        expect(answer.status, `${id} ${contentType}: ${answer.text}`).toBeLessThan(500);
      }
    },
  );

  it("serves a whole sign-in and a key creation sent as application/json; charset=utf-8", async () => {
    const browser = honestBrowser();
    const charset = { "content-type": "application/json; charset=utf-8" };
    const begun = await browser.call("/v1/dashboard/sign-in/options", { body: {}, headers: charset });
    expect(begun.status).toBe(200);
    const signedIn = await browser.call("/v1/dashboard/sign-in", {
      body: { challenge_id: begun.body.challenge_id, credential: alicePasskey.assert(begun.body.options) },
      headers: charset,
    });
    expect(signedIn.status).toBe(201);
    const created = await browser.call("/v1/keys", {
      body: { name: "utf-8" },
      csrf: signedIn.body.csrf_token as string,
      headers: charset,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // A POST without a body (the dashboard's sign-out everywhere) has no Content-Type to check.
    const everywhere = await browser.call("/v1/dashboard/sign-out-everywhere", {
      method: "POST",
      csrf: signedIn.body.csrf_token as string,
    });
    expect(everywhere.status, JSON.stringify(everywhere.body)).toBe(200);
  });

  it("answers GET /v2/transfers with the JSON 404 and a Request-Id, page or not; an app route asked for as a page is the app", async () => {
    for (const accept of [undefined, "*/*", "text/html"]) {
      const response = await given.world.fetch(
        "/v2/transfers",
        accept === undefined ? {} : { headers: { accept } },
      );
      expect(response.status, accept).toBe(404);
      const body = (await response.json()) as { error: { code: string; request_id: string } };
      expect(body.error).toEqual({
        code: "not_found",
        message: expect.any(String),
        request_id: response.headers.get("request-id"),
      });
    }
    const page = await given.world.fetch("/transfers", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  });
});
