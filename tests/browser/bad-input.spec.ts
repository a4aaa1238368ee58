/**
 * What the dashboard refuses, and that a refusal changes nothing: a malformed secret and another
 * account's secret at the unlock step; a session that has expired (the page returns to sign-in and
 * says so); a revoked passkey (its session ends and it no longer signs in); a request that changes
 * something, made with the session cookie but without the CSRF header (as a forged form post
 * would be).
 */
import { randomBytes } from "node:crypto";
import Sqlite from "better-sqlite3";
import { openNav } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";
import { recordNetwork } from "./support/network-recorder";
import { addVirtualAuthenticator } from "./support/virtual-authenticator";

test("Given the unlock step, When a malformed secret or another account's secret is given, Then each is refused with its reason and nothing unlocks", async ({
  signedInPage: page,
  world,
  checkPage,
}) => {
  const secret = page.getByRole("textbox", { name: "Account secret" });
  const unlockButton = page.getByRole("button", { name: "Unlock", exact: true });

  await secret.fill("not a secret at all");
  await unlockButton.click();
  await expect(page.getByRole("alert")).toContainText("That is not an account secret");

  await secret.fill(world.stranger.secret);
  await unlockButton.click();
  await expect(page.getByRole("alert")).toContainText(`does not belong to ${world.owner.handle}`);
  await expect(page.getByText("locked", { exact: true })).toBeVisible();
  await expect(page.locator("[data-amount]")).toHaveCount(0);
  await checkPage("unlock-refused", { scan: false });
});

test("Given a signed-in page, When its session expires, Then the next action returns to sign-in and says the session expired", async ({
  signedInPage: page,
  world,
  checkPage,
}) => {
  // (the overview has loaded: usually the next request is the test's own navigation)
  await page.waitForLoadState("networkidle");
  // When the account's sessions have been idle past their limit (their rows aged, as 30 minutes would)
  const db = new Sqlite(world.databasePath);
  try {
    const past = new Date(Date.now() - 60_000).toISOString();
    const aged = db
      .prepare(
        "UPDATE sessions SET idle_expires_at = ? WHERE ended_at IS NULL AND account_id = (SELECT id FROM accounts WHERE handle = ?)",
      )
      .run(past, world.owner.handle);
    expect(aged.changes).toBeGreaterThan(0);
  } finally {
    db.close();
  }
  // Then the next request (the test's navigation, or one the page still had to make) is refused,
  // and the page returns to sign-in
  const signInHeading = page.getByRole("heading", { level: 1, name: "Sign in" });
  await Promise.race([openNav(page, "Transfers").catch(() => undefined), signInHeading.waitFor()]);
  await expect(signInHeading).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Your session expired");
  await checkPage("sign-in-session-expired", { scan: false });
});

test("Given a second account's passkey, When it is revoked, Then its session ends and it no longer signs in", async ({
  browser,
  world,
  checkPage,
}) => {
  expect(world.stranger.enrollmentLink, "the API issues no enrollment link").not.toBeNull();
  const context = await browser.newContext({ baseURL: world.baseUrl });
  const recorder = recordNetwork(context, world.watched);
  try {
    const page = await context.newPage();
    const authenticator = await addVirtualAuthenticator(context, page);
    await page.goto(world.stranger.enrollmentLink as string);
    await page.getByRole("button", { name: "Create passkey" }).click();
    await expect(page.getByText(world.stranger.handle, { exact: true })).toBeVisible();

    // When the passkey is revoked on the passkeys page, where it is marked as this session's
    await openNav(page, "Passkeys");
    const row = page.getByRole("row").filter({ hasText: "(this session)" });
    await expect(row).toHaveCount(1);
    await checkPage("passkeys", { page });
    await row.getByRole("button", { name: "Revoke" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this passkey?" });
    await expect(dialog).toContainText("you will be signed out");
    await dialog.getByRole("button", { name: "Confirm" }).click();

    // Then its session has ended: the page returns to sign-in, saying why
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("status")).toContainText("You revoked");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    // And the passkey, still on the authenticator, no longer signs in
    expect(await authenticator.credentials()).toHaveLength(1);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    await checkPage("sign-in-revoked-passkey", { page, scan: false });
    expect(await recorder.leaks()).toEqual([]);
  } finally {
    await context.close();
  }
});

test("Given a session, When a change is posted with its cookie but without the CSRF header, Then it is refused and nothing changes", async ({
  signedInPage: page,
}) => {
  const keysBefore = await (await page.request.get("/v1/keys")).json();
  const name = `forged ${randomBytes(3).toString("hex")}`;

  // When a key is asked for with the cookie alone, as JSON and as a form post
  const asJson = await page.request.post("/v1/keys", { data: { name } });
  const asForm = await page.request.post("/v1/keys", { form: { name } });

  // Then both are refused: the JSON one for the missing token, the form one (a body no /v1 route
  // takes) before it reaches any handler
  expect(asJson.status()).toBe(403);
  expect((await asJson.json()).error.code).toBe("csrf_token_invalid");
  expect(asForm.status(), await asForm.text()).toBeGreaterThanOrEqual(400);
  expect(asForm.status()).toBeLessThan(500);
  // And no key was made
  const keysAfter = await (await page.request.get("/v1/keys")).json();
  // (usage columns left out: request counts are written up to a second late, and other tests use keys)
  const keyRows = (keys: { id: string; name: string; revoked_at: string | null }[]) =>
    keys.map(({ id, name, revoked_at }) => ({ id, name, revoked_at }));
  expect(keyRows(keysAfter.keys)).toEqual(keyRows(keysBefore.keys));
  expect(JSON.stringify(keysAfter)).not.toContain(name);
});
