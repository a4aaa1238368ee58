/**
 * The dashboard in a real browser: Debian's Chromium (/usr/bin/chromium, scripts/install-system-deps.sh;
 * Playwright's own browser download is unreachable here), headless, one worker (a 2-core machine,
 * and one world whose state the tests build on). The global setup starts and seeds the world
 * (support/global-setup.ts). The `enrol` project registers the passkey every later test signs in
 * with, so it runs first. Artifacts under test-results/browser: a named screenshot of every page a
 * test visits, and a screenshot and a trace of each failure.
 */
import { resolve } from "node:path";
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: resolve(import.meta.dirname, "../../test-results/browser"),
  globalSetup: "./support/global-setup.ts",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  // Bounds for a stuck world, never a pass/fail judgement on speed.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: "/usr/bin/chromium" },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
  },
  projects: [
    { name: "enrol", testMatch: "enrol.spec.ts" },
    { name: "dashboard", testIgnore: "enrol.spec.ts", dependencies: ["enrol"] },
  ],
});
