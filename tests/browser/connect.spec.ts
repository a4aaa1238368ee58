/**
 * "Connect an agent" on the agents page, as an owner setting up an agent's MCP host: the local
 * server's configuration for a new self-custody agent (its signer secret from the create answer, a
 * fresh key of the agent's own, its confidential secret derived in the page from the owner's and
 * never sent anywhere), then for that agent picked again with its signer secret pasted; and the
 * remote server's for the existing service-custody agent (locked, the local one is not offered). Each
 * configuration is read back from the clipboard the Copy button filled, parsed, and its settings
 * checked against the service (the key is the agent's) and the SDK's own derivation.
 */
import { randomBytes } from "node:crypto";
import {
  deriveAgentConfidentialSecret,
  exportConfidentialSecret,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";
import type { Page } from "@playwright/test";
import { v1 } from "./support/admin-client";
import { openNav, signIn, unlock } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";
import { secretForms } from "./support/plaintext-forms";

const KEY = /^svc_test_[A-Za-z0-9_-]{43}$/;

/** Clicks Copy and returns the configuration as the clipboard holds it, parsed. */
async function copiedConfig(page: Page) {
  const shown = page.locator("[data-mcp-config]");
  await expect(shown).toBeVisible();
  await page.getByRole("button", { name: "Copy configuration" }).click();
  await expect(page.locator("[data-copied]")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await shown.textContent());
  return JSON.parse(copied);
}

test.beforeEach(async ({ context, world }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.baseUrl });
});

test("Given an unlocked owner, When it connects a new agent to the local MCP server, Then the configuration carries the agent's own key, its signer secret and its confidential secret derived in the page, which never crossed the network", async ({
  page,
  world,
  authenticator,
  recorder,
  checkPage,
}) => {
  const name = `mcp-${randomBytes(3).toString("hex")}`;
  const handle = `${world.owner.handle}/${name}`;
  const expectedSecret = exportConfidentialSecret(
    deriveAgentConfidentialSecret(importConfidentialSecret(world.owner.secret), handle.slice(1)),
  );
  // Derived in the page from the owner's secret: in no request and no answer, in any form
  recorder.watch(secretForms(expectedSecret));
  await signIn(page, authenticator);
  await unlock(page, world.owner.secret);
  await openNav(page, "Agents");

  // When the owner fills the connection form for a new agent on the local server
  const panel = page.getByRole("region", { name: "Connect an agent over MCP" });
  await panel.getByRole("radio", { name: /^Local server/ }).check();
  await expect(panel.getByRole("combobox", { name: "Agent" })).toHaveValue("new");
  await panel.getByRole("textbox", { name: "Agent name" }).fill(name);
  await panel.getByRole("textbox", { name: "Daily limit (USDG)" }).fill("40");
  await panel.getByRole("textbox", { name: "Per-transaction limit (USDG)" }).fill("20");
  await panel.getByRole("textbox", { name: "Approval threshold (USDG)" }).fill("10");
  await panel.getByRole("textbox", { name: "Solana RPC URL" }).fill(world.localnetRpcUrl);
  await panel.getByRole("textbox", { name: "Solana WebSocket URL" }).fill("ws://127.0.0.1:8900");
  await panel.getByRole("textbox", { name: /^Ask me in the client above/ }).fill("2.5");
  const createAnswer = page.waitForResponse(
    (response) => response.url().endsWith("/v1/accounts/me/agents") && response.request().method() === "POST",
  );
  await panel.getByRole("button", { name: "Make the configuration" }).click();
  const created = await (await createAnswer).json();
  expect(created.custody).toBe("self");
  expect(created.handle).toBe(handle);

  // Then the configuration the Copy button puts on the clipboard parses, with every setting filled
  const config = await copiedConfig(page);
  await checkPage("agents-connect-local");
  expect(Object.keys(config.mcpServers)).toEqual(["cpay"]);
  const entry = config.mcpServers.cpay;
  expect(entry.command).toBe("npx");
  expect(entry.args).toEqual(["--no", "cpay-mcp"]);
  expect(entry.env).toEqual({
    CPAY_API_URL: world.baseUrl,
    CPAY_AGENT_API_KEY: expect.stringMatching(KEY),
    CPAY_AGENT_SIGNER_SECRET: created.signer_secret,
    CPAY_AGENT_CONFIDENTIAL_SECRET: expectedSecret,
    SOLANA_RPC_URL: world.localnetRpcUrl,
    SOLANA_WS_URL: "ws://127.0.0.1:8900",
    CPAY_MCP_CONFIRM_ABOVE: "2.5",
  });
  expect(created.signer_secret).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

  // And the key is the agent's own: the service answers it as the agent, and its relay serves it
  const me = await v1(world.baseUrl, entry.env.CPAY_AGENT_API_KEY, "GET", "/v1/accounts/me");
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  expect(me.body.handle).toBe(handle);
  const relay = await v1(world.baseUrl, entry.env.CPAY_AGENT_API_KEY, "GET", "/v1/relay");
  expect(relay.status, JSON.stringify(relay.body)).toBe(200);

  // When the owner picks that agent again, Then the local server needs its signer secret pasted
  await panel.getByRole("combobox", { name: "Agent" }).selectOption({ label: handle });
  await expect(panel.getByRole("textbox", { name: "Agent name" })).toHaveCount(0);
  const signer = panel.getByRole("textbox", { name: "Its signer secret" });
  await panel.getByRole("button", { name: "Make the configuration" }).click();
  await expect(signer).toHaveAttribute("aria-invalid", "true");
  await signer.fill(created.signer_secret);
  await panel.getByRole("button", { name: "Make the configuration" }).click();
  const again = (await copiedConfig(page)).mcpServers.cpay.env;
  expect(again).toEqual({ ...entry.env, CPAY_AGENT_API_KEY: expect.stringMatching(KEY) });
  expect(again.CPAY_AGENT_API_KEY).not.toBe(entry.env.CPAY_AGENT_API_KEY);
  expect(recorder.requests()).toBeGreaterThan(0);
});

test("Given the owner's service-custody agent, When it is connected to the remote MCP server, Then the configuration names the service's /mcp with a fresh key of that agent", async ({
  page,
  world,
  authenticator,
  checkPage,
}) => {
  await signIn(page, authenticator);
  await openNav(page, "Agents");
  const panel = page.getByRole("region", { name: "Connect an agent over MCP" });
  // Locked, the local server's configuration cannot be made: it needs the owner's secret
  await expect(panel.getByRole("radio", { name: /^Local server/ })).toBeChecked();
  await expect(panel.getByText(/^Unlock first/)).toBeVisible();
  await expect(panel.getByRole("button", { name: "Make the configuration" })).toBeDisabled();
  await panel.getByRole("radio", { name: /^Remote server/ }).check();
  // The local server's settings (and the unlock it needs) are not asked for
  await expect(panel.getByRole("textbox", { name: "Solana RPC URL" })).toHaveCount(0);
  await panel.getByRole("combobox", { name: "Agent" }).selectOption({ label: world.agent.handle });
  await expect(panel.getByRole("textbox", { name: "Agent name" })).toHaveCount(0);
  await panel.getByRole("button", { name: "Make the configuration" }).click();

  const config = await copiedConfig(page);
  await checkPage("agents-connect-remote");
  expect(config).toEqual({
    mcpServers: {
      cpay: {
        type: "http",
        url: `${world.baseUrl}/mcp`,
        headers: { Authorization: expect.stringMatching(/^Bearer svc_test_[A-Za-z0-9_-]{43}$/) },
      },
    },
  });
  const apiKey = (config.mcpServers.cpay.headers.Authorization as string).slice("Bearer ".length);
  expect(apiKey).not.toBe(world.agent.apiKey);
  const me = await v1(world.baseUrl, apiKey, "GET", "/v1/accounts/me");
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  expect(me.body.handle).toBe(world.agent.handle);
});
