/**
 * A live account's holder: the operator's link (`enr_live_...`) enrols the passkey in the live
 * environment, and later the holder signs in choosing Live (the page offers the environment used
 * last). Signed in, the page header says Live and shows the live account, and every request the
 * page makes names the live environment. The test environment does not know the live passkey.
 */
import { openNav } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";

test("Given a live account's enrollment link, When its holder enrols and signs in choosing Live, Then the page shows the Live badge and the live account", async ({
  page,
  world,
  authenticator,
  checkPage,
}) => {
  const named: (string | undefined)[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/v1/")) {
      named.push(request.headers()["x-cpay-environment"]);
    }
  });

  // Given the link the operator handed out for the live account
  expect(world.live.enrollmentLink).toMatch(/#token=enr_live_/);
  await page.goto(world.live.enrollmentLink);
  await expect(page.getByRole("heading", { level: 1, name: "Enroll a passkey" })).toBeVisible();
  await expect(page.getByText("Live", { exact: true })).toBeVisible();

  // When the holder creates the passkey, Then they are signed in to the live account
  named.length = 0;
  await page.getByRole("button", { name: "Create passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText(world.live.handle, { exact: true })).toBeVisible();
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);

  // And after signing out, the sign-in page offers Live, the environment used last
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  const live = page.getByRole("radio", { name: /^Live/ });
  await expect(live).toBeChecked();

  // The test environment does not know this passkey
  await page.getByRole("radio", { name: /^Test/ }).check();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert")).toContainText("passkey_not_recognized");

  // When the holder chooses Live and signs in
  await live.check();
  await checkPage("sign-in-live");
  named.length = 0;
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();

  // Then the page header says Live and shows the live account, on every page
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const badge = page.locator("header").getByText("Live", { exact: true });
  await expect(badge).toBeVisible();
  await expect(page.locator("header").getByText(world.live.handle, { exact: true })).toBeVisible();
  await checkPage("overview-live");
  await openNav(page, "Transfers");
  await expect(page.getByRole("heading", { level: 1, name: "Transfers" })).toBeVisible();
  await expect(badge).toBeVisible();

  // And every request since the choice named the live environment
  expect(named.length).toBeGreaterThan(2);
  expect(new Set(named)).toEqual(new Set(["live"]));
});
