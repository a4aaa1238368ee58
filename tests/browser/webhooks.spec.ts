/**
 * Webhooks: a subscription created in the dashboard to an endpoint that fails (500) gets a failed
 * attempt in its delivery log; once the endpoint is healed, Replay from the log queues the delivery
 * again and it is delivered. The event comes from a public transfer the owner's key makes over /v1
 * (its amount watched like any other).
 */
import { confirmedTransfer, v1 } from "./support/admin-client";
import { openNav, signIn } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";
import { amountForms, usdgDecimal } from "./support/plaintext-forms";
import { steerReceiver } from "./support/webhook-receiver";

const EVENT_UNITS = 2_468_013n;

test("Given a webhook whose endpoint fails, When the failed delivery is replayed from the log after the endpoint heals, Then it is delivered", async ({
  page,
  world,
  authenticator,
  recorder,
  checkPage,
}) => {
  recorder.watch(amountForms(EVENT_UNITS));
  await steerReceiver(world.webhookUrl, "fail");
  await signIn(page, authenticator);
  await openNav(page, "Webhooks");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

  // Given a subscription to an endpoint that answers 500
  await page.getByRole("textbox", { name: "Webhook URL" }).fill(world.webhookUrl);
  await page.getByRole("button", { name: "Create webhook" }).click();
  const card = page.getByRole("article", { name: world.webhookUrl });
  await expect(card).toBeVisible();

  // When an event happens (a transfer the owner's integration makes) and its delivery fails
  const sent = await v1(world.baseUrl, world.owner.apiKey, "POST", "/v1/transfers", {
    to: world.recipient,
    amount: usdgDecimal(EVENT_UNITS),
    confidential: false,
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  await confirmedTransfer(world.baseUrl, world.owner.apiKey, sent.body.transfer_id);
  const failed = card.locator("tr[data-delivery-id]").filter({ hasText: "500" }).first();
  await expect(async () => {
    await card.getByRole("button", { name: "Refresh log" }).click();
    await expect(failed).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await checkPage("webhooks-failed-delivery", { scan: false });
  const deliveryId = await failed.getAttribute("data-delivery-id");

  // And the endpoint heals, and the delivery is replayed from the log
  await steerReceiver(world.webhookUrl, "heal");
  const replayAnswer = page.waitForResponse((response) => response.url().includes("/replay/"));
  await failed.getByRole("button", { name: "Replay" }).click();
  const replay = await replayAnswer;
  expect(replay.status()).toBe(202);
  expect((await replay.json()).delivery_id).toBe(deliveryId);
  await expect(card.getByRole("status")).toContainText("queued again");

  // Then it is delivered
  const row = card.locator(`tr[data-delivery-id="${deliveryId}"]`);
  await expect(async () => {
    await card.getByRole("button", { name: "Refresh log" }).click();
    await expect(row).toHaveAttribute("data-state", "delivered", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  expect((await steerReceiver(world.webhookUrl, "status")).accepted).toBeGreaterThan(0);
  await checkPage("webhooks-replayed");
});
