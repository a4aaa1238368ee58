/**
 * Human in the loop: the agent, with its own key over /v1 (from Node, as the agent's code would),
 * sends a confidential transfer above its policy's threshold; the program holds it. The owner's
 * approvals inbox shows it with its exact amount (opened in the page from the amount the agent
 * sealed to the owner); the owner approves it (with a confirmation) and the transfer confirms.
 * Figure printed, not asserted: from the inbox's navigation to the amount shown, and from the
 * hold's creation to the amount shown. Then the agents page shows what the agent may still spend
 * today, decrypted in the page: its daily limit less the approved amount.
 */

import { confirmedTransfer, v1 } from "./support/admin-client";
import { openNav, signIn, unlock } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";
import { watchFromNextNavClick } from "./support/page-timing";
import { amountForms, usdgDecimal } from "./support/plaintext-forms";

/** Above the agent's 5 USDG threshold, below its 100 USDG per-transaction limit. */
const HELD_UNITS = 7_654_321n;
/** The seeded policy (support/global-setup.ts); no other test spends with this agent. */
const DAILY_LIMIT_UNITS = 250_000_000n;
const PER_TRANSACTION_LIMIT_UNITS = 100_000_000n;

test("Given an agent's transfer held above its threshold, When the owner approves it in the inbox, Then its exact amount was shown, it confirms, and the agents page shows what is left today", async ({
  page,
  world,
  authenticator,
  recorder,
  checkPage,
}) => {
  const leftUnits = DAILY_LIMIT_UNITS - HELD_UNITS;
  // What is left is worked out in the page: it must not travel either
  recorder.watch([...amountForms(HELD_UNITS), ...amountForms(leftUnits)]);
  const amount = usdgDecimal(HELD_UNITS);
  await signIn(page, authenticator);
  await unlock(page, world.owner.secret);

  // Given the agent's transfer, held by the program
  const heldAt = Date.now();
  const created = await v1(world.baseUrl, world.agent.apiKey, "POST", "/v1/transfers", {
    to: world.recipient,
    amount,
    confidential: true,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.status).toBe("pending");
  const transactionId = created.body.approval?.transaction_id as string;
  expect(transactionId).toMatch(/^tx_/);

  // When the owner opens the inbox, Then the hold shows its exact amount
  const watch = await watchFromNextNavClick(page, {
    linkName: "Approvals",
    selector: `tr[data-transaction-id="${transactionId}"] [data-amount="${amount}"]`,
    count: 1,
  });
  const navigatedAt = Date.now();
  await openNav(page, "Approvals");
  const row = page.locator(`tr[data-transaction-id="${transactionId}"]`);
  // Checked on every animation frame, so the figure is not an `expect`'s polling interval
  await page.waitForFunction(
    (selector) => document.querySelector(selector) !== null,
    `tr[data-transaction-id="${transactionId}"] [data-amount="${amount}"]`,
    { polling: "raf", timeout: 30_000 },
  );
  const shownAt = Date.now();
  // How much of it the API's list answer took (the page's own resource timing)
  const listMs = await page.evaluate(() =>
    Math.round(
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((entry) => entry.name.includes("/v1/agents/transactions/pending"))
        .map((entry) => entry.responseEnd - entry.startTime)
        .at(-1) ?? -1,
    ),
  );
  await expect(row.locator(`[data-amount="${amount}"]`)).toHaveText(`${amount} USDG`);
  console.log(
    `figure: approval amount shown ${await watch.clickedToShownMs()} ms after the click on "Approvals" by the page's clock (${shownAt - navigatedAt} ms as the test driver saw it; the API's pending list took ${listMs} ms), ${shownAt - heldAt} ms after the agent's request`,
  );
  await expect(row).toContainText(world.agent.handle);
  await checkPage("approvals");

  // When the owner approves it and confirms
  await row.getByRole("button", { name: "Approve" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve this transaction?" });
  await expect(dialog).toContainText(amount);
  await checkPage("approvals-confirm-dialog");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status").filter({ hasText: transactionId })).toBeVisible();
  await expect(row).toHaveCount(0);

  // Then the transfer confirms on chain
  const confirmed = await confirmedTransfer(world.baseUrl, world.agent.apiKey, created.body.transfer_id);
  expect(confirmed.body.status).toBe("confirmed");

  // When the owner opens the agents page, Then the agent's budget today counts the approved transfer
  await openNav(page, "Agents");
  const card = page.locator("article", { has: page.getByRole("heading", { name: world.agent.handle }) });
  await expect(card.locator(`[data-budget="daily"] [data-amount="${usdgDecimal(leftUnits)}"]`)).toHaveText(
    `${usdgDecimal(leftUnits)} USDG`,
  );
  await expect(
    card.locator(
      `[data-budget="per-transaction"] [data-amount="${usdgDecimal(PER_TRANSACTION_LIMIT_UNITS)}"]`,
    ),
  ).toBeVisible();
  await checkPage("agents-budget");
});
