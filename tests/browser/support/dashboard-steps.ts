/**
 * The steps every test takes the way a user does: sign in with the enrolled passkey (the
 * authenticator of this page is given the credential the enrolment test registered) and unlock the
 * account by pasting its secret. Both wait for what the user would see next.
 */
import { expect, type Page } from "@playwright/test";
import { savedPasskey } from "./passkey-store";
import type { VirtualAuthenticator } from "./virtual-authenticator";

/** Signs in at /sign-in with the enrolled passkey; returns on the overview. */
export async function signIn(page: Page, authenticator: VirtualAuthenticator): Promise<void> {
  await authenticator.add(savedPasskey());
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

/** Pastes `secret` into the unlock step; returns once the page says it is unlocked. */
export async function unlock(page: Page, secret: string): Promise<void> {
  await page.getByRole("textbox", { name: "Account secret" }).fill(secret);
  await page.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(page.getByText("unlocked", { exact: true })).toBeVisible();
}

/** Follows a link of the main navigation (a client-side route change: the unlocked keys stay). */
export async function openNav(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();
}
