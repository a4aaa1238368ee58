/**
 * The suite's `test`: every test gets the world, a page on `http://localhost:<port>`, a virtual
 * passkey authenticator on that page, and a network recorder over its context that fails the test
 * if a watched plaintext crossed the network. `checkPage` screenshots and axe-scans a page;
 * `signedInPage` is the page already signed in with the enrolled passkey, for tests that start there.
 */
import { test as base, expect, type Page } from "@playwright/test";
import { signIn } from "./dashboard-steps";
import { type NetworkRecorder, recordNetwork } from "./network-recorder";
import { checkPage } from "./page-check";
import { hasSavedPasskey, savedPasskey, savePasskey } from "./passkey-store";
import { addVirtualAuthenticator, type VirtualAuthenticator } from "./virtual-authenticator";
import { type BrowserWorld, world } from "./world";

interface Fixtures {
  world: BrowserWorld;
  authenticator: VirtualAuthenticator;
  recorder: NetworkRecorder;
  /** Screenshot `test-results/.../pages/<name>.png` + axe scan (unless `scan: false`) of the page now. */
  checkPage: (name: string, options?: { page?: Page; scan?: boolean }) => Promise<void>;
  /** `page`, signed in with the enrolled passkey (dashboard-steps.ts `signIn`): on the overview. */
  signedInPage: Page;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  world: async ({}, use) => {
    await use(world());
  },
  baseURL: async ({ world }, use) => {
    await use(world.baseUrl);
  },
  recorder: [
    async ({ context, world }, use) => {
      const recorder = recordNetwork(context, world.watched);
      await use(recorder);
      const leaks = await recorder.leaks();
      expect(leaks, "plaintext amounts, memos or secrets crossed the browser's network").toEqual([]);
    },
    { auto: true },
  ],
  authenticator: async ({ context, page }, use) => {
    const authenticator = await addVirtualAuthenticator(context, page);
    await use(authenticator);
    // The enrolled passkey's counter moved on in this test: the next one starts from here.
    if (hasSavedPasskey()) {
      const { credentialId } = savedPasskey();
      const used = (await authenticator.credentials()).find((found) => found.credentialId === credentialId);
      if (used !== undefined) savePasskey(used);
    }
    await authenticator.remove();
  },
  checkPage: async ({ page }, use, testInfo) => {
    await use((name, options = {}) => checkPage(options.page ?? page, testInfo, name, options));
  },
  signedInPage: async ({ page, authenticator }, use) => {
    await signIn(page, authenticator);
    await use(page);
  },
});

export { expect };
