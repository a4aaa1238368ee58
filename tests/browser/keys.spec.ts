/**
 * The developer's keys page: a key created in the dashboard is shown once, works for a plain HTTP
 * request made outside the browser (fetch from Node, as curl would), and once revoked in the
 * dashboard (with a confirmation) the same request gets 401.
 */
import { randomBytes } from "node:crypto";
import { v1 } from "./support/admin-client";
import { openNav } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";

test("Given the keys page, When a key is created, used over HTTP and revoked, Then it works until it is revoked and then gets 401", async ({
  signedInPage: page,
  world,
  checkPage,
}) => {
  await openNav(page, "API keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();

  // When a key is created, Then it is shown once
  const name = `browser key ${randomBytes(3).toString("hex")}`;
  await page.getByRole("textbox", { name: "Key name" }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.locator("[data-secret-once]");
  await expect(shown).toHaveText(/^svc_test_\S+$/);
  const apiKey = ((await shown.textContent()) ?? "").trim();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await checkPage("api-keys");

  // And it works for a plain HTTP request outside the browser
  const me = await v1(world.baseUrl, apiKey, "GET", "/v1/accounts/me");
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  expect(me.body.handle).toBe(world.owner.handle);

  // When it is revoked (and the revocation confirmed)
  await row.getByRole("button", { name: "Revoke" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke this key?" });
  await expect(dialog).toBeVisible();
  await checkPage("api-keys-revoke-dialog", { scan: false });
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(row).toContainText("revoked");

  // Then the same request is refused
  const after = await v1(world.baseUrl, apiKey, "GET", "/v1/accounts/me");
  expect(after.status, JSON.stringify(after.body)).toBe(401);
});
