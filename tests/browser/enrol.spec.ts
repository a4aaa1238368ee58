/**
 * The first visit: the operator's one-time enrollment link registers the holder's passkey (a
 * virtual platform authenticator with PRF), which signs them in; the link cannot be used twice.
 * The secret, pasted once, is wrapped with the passkey's PRF output; after a reload (the secret is
 * forgotten) and after signing out and in, the passkey alone unlocks it. The passkey is kept for
 * every later test (they run in the `dashboard` project, after this one).
 */
import { expect, test } from "./support/fixtures";
import { savePasskey } from "./support/passkey-store";

test("Given the one-time link, When the holder creates a passkey, Then it signs them in, the link is spent, and the passkey unlocks the wrapped secret", async ({
  page,
  world,
  authenticator,
  checkPage,
}) => {
  expect(world.enrollmentLink, "the API issues no enrollment link (admin route missing)").not.toBeNull();
  const link = world.enrollmentLink as string;

  // Given the link the operator handed out
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Enroll a passkey" })).toBeVisible();
  // the token was read from the fragment and taken out of the address bar
  await expect.poll(() => page.url()).not.toContain("#token=");
  await checkPage("enroll");

  // When the holder creates the passkey, Then they are signed in as the account
  await page.getByRole("button", { name: "Create passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText(world.owner.handle, { exact: true })).toBeVisible();
  const credentials = await authenticator.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  savePasskey(credentials[0] as (typeof credentials)[number]);
  await checkPage("overview-locked", { scan: false });

  // And the secret pasted once is wrapped with the passkey (PRF), stored opaque by the service
  await page.getByRole("textbox", { name: "Account secret" }).fill(world.owner.secret);
  await page.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(page.getByText("unlocked", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Wrap with passkey" }).click();
  await expect(page.getByText("Your secret is now wrapped by this passkey")).toBeVisible();

  // And after a reload (the secret was in memory only) the passkey alone unlocks it
  await page.reload();
  await expect(page.getByText("locked", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Unlock with passkey" }).click();
  await expect(page.getByText("unlocked", { exact: true })).toBeVisible();

  // And after signing out, signing in with the passkey unlocks at the same touch
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await checkPage("sign-in");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText("unlocked", { exact: true })).toBeVisible();

  // And the link, once spent, registers nothing more
  await page.goto(link);
  await page.getByRole("button", { name: "Create passkey" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
});
